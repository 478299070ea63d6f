"""The GDL front end: KIF text, grounding, and the GDL engines (symbolic and explicit)."""

__all__: list[str] = []
