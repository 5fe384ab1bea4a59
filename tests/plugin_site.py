"""Made-up plugin distributions for tests: a folder on ``sys.path`` with ``*.dist-info``
folders and modules, found exactly as an installed package is."""

from __future__ import annotations

import importlib
import textwrap
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Site:
    """A folder on ``sys.path`` holding plugin distributions made up for one test."""

    folder: Path
    modules: list[str] = field(default_factory=list)

    def add(self, plugin: str, source: str, *, entry_points: str | None = None) -> str:
        """A distribution ``<plugin>-plugin 1.0`` whose entry point ``plugin`` is ``source``.

        The module gets a name of its own per test (a failed import leaves no trace in
        ``sys.modules``, a good one would be reused by the next test).
        """
        module = f"{plugin}_{len(self.modules)}_{abs(hash(self.folder)) % 10**8}"
        self.modules.append(module)
        (self.folder / f"{module}.py").write_text(textwrap.dedent(source), "utf-8")
        dist = self.folder / f"{plugin}_plugin-1.0.dist-info"
        dist.mkdir()
        dist_name = plugin.replace("_", "-") + "-plugin"
        (dist / "METADATA").write_text(
            f"Metadata-Version: 2.1\nName: {dist_name}\nVersion: 1.0\n", "utf-8"
        )
        text = entry_points if entry_points is not None else f"[ulti_rules]\n{plugin} = {module}\n"
        (dist / "entry_points.txt").write_text(text, "utf-8")
        importlib.invalidate_caches()
        return module
