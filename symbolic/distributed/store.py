"""The work directory of a distributed run: each worker task's answer on disk, so that a
stopped run resumes from the parts already solved.

A task (:mod:`symbolic.distributed.worker`) is a pure function of what it is sent: the
game (its model file's text, parameters, backend, order and partition) and the BDDs of
the part as bytes, with the task's few other arguments. :meth:`TaskStore.key` hashes
exactly that (SHA-256), and :meth:`TaskStore.put` writes the task's answer to
``DIR/tasks/<key>.bdd`` as it arrives (the BDDs as the wire's bytes, never a pickled
manager; written to a temporary file and renamed, so a run stopped in the middle of a
write leaves no half file). A rerun with the same arguments computes the same parts (the
same BDDs in the same order: dynamic reordering is off), finds their answers and does
not send those tasks again; the client's own share (the splits and the unions) is done
again, the workers' relational products are not. A directory shared by several runs is
safe: a key names the game and the part, so a different run finds nothing of another.

>>> import tempfile
>>> from symbolic.distributed.worker import WorkSpec
>>> store = TaskStore(tempfile.mkdtemp(), WorkSpec("models/tictactoe.game", (), "cudd"))
>>> key = store.key("post_part", (b"part", ("x",)))
>>> store.get(key) is None
True
>>> store.put(key, (b"image", [(True,), (False,)], {"seconds": 0.1}))
>>> store.get(key)[:2]
(b'image', [(True,), (False,)])
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from typing import Sequence

from ..errors import QueryError
from ..model import load_model
from .worker import WorkSpec

__all__ = ["TaskStore"]

# the version of the stored answers: a store of another version is not read
_FORMAT = b"symbolic-task 1\n"


class TaskStore:
    """The answers of the tasks of runs of the game of ``spec`` in ``directory``
    (created when missing; QueryError when it cannot be)."""

    def __init__(self, directory: str, spec: WorkSpec):
        if spec.model is None:
            raise QueryError("a work directory needs a model file (the game's text names it)")
        self.directory = os.path.join(os.path.abspath(directory), "tasks")
        try:
            os.makedirs(self.directory, exist_ok=True)
        except OSError as err:
            raise QueryError(f"cannot use {directory!r} as the work directory ({err})") from None
        self._game = hashlib.sha256(_FORMAT + _identity(spec)).digest()
        self.read = self.written = 0

    def key(self, task: str, args: Sequence) -> str:
        """The name of the answer of task ``task`` on ``args`` (its arguments after the
        spec): the hash of the game, the task's name and every argument."""
        h = hashlib.sha256(self._game)
        for part in (task.encode(), *(_encode(a) for a in args)):
            h.update(len(part).to_bytes(8, "little"))
            h.update(part)
        return h.hexdigest()

    def _path(self, key: str) -> str:
        return os.path.join(self.directory, key + ".bdd")

    def get(self, key: str) -> tuple | None:
        """The stored answer ``(bytes, meta, info)`` of ``key``, or None."""
        try:
            with open(self._path(key), "rb") as f:
                data = f.read()
        except FileNotFoundError:
            return None
        if not data.startswith(_FORMAT):
            return None
        line, _, body = data[len(_FORMAT) :].partition(b"\n")
        head = json.loads(line)
        if len(body) != head["size"]:  # not the whole answer: run the task again
            return None
        self.read += 1
        meta = [tuple(x) if isinstance(x, list) else x for x in head["meta"]]
        return body, meta, {"part_nodes": 0, "manager_nodes": 0, "seconds": 0.0, "stored": True}

    def put(self, key: str, answer: tuple) -> None:
        """Keep the answer ``(bytes, meta, info)`` of ``key`` (``meta`` a list of JSON
        values; ``info`` is not kept)."""
        data, meta = answer[0], answer[1]
        head = json.dumps({"meta": list(meta), "size": len(data)}).encode()
        fd, tmp = tempfile.mkstemp(dir=self.directory, suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(_FORMAT + head + b"\n" + data)
            os.replace(tmp, self._path(key))
        except BaseException:
            if os.path.exists(tmp):
                os.unlink(tmp)
            raise
        self.written += 1


def _identity(spec: WorkSpec) -> bytes:
    """What decides a task's answer besides its arguments: the model's text (a file, or
    a shipped model's name), its parameters, the backend, the order and the partition."""
    source = load_model(spec.model, dict(spec.params)).text
    return json.dumps(
        [source, list(map(list, spec.params)), spec.backend, spec.order, spec.partition]
    ).encode()


def _encode(arg) -> bytes:
    """An argument of a task as bytes: BDD bytes as they are, the rest as JSON."""
    if isinstance(arg, bytes):
        return arg
    return json.dumps(arg, sort_keys=True).encode()
