"""The front end's module structure: symbolic.lang stands below symbolic.model."""
from __future__ import annotations

import subprocess
import sys


def test_the_front_end_never_imports_the_model_module():
    code = ("import sys, symbolic.lang, symbolic.lang.decls; "
            "print('symbolic.model' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "False"
