"""Konane's engine calls for asyncio: the calls of ``konane.Engine``, ``solve``, ``check`` and
``play_match``, awaited. Each runs on a worker thread (``asyncio.to_thread``), so the event loop
goes on while an engine thinks::

    import asyncio, konane, konane.aio

    async def main():
        async with await konane.aio.Engine.start("target/release/konane-engine") as engine:
            result = await engine.play(konane.Position("8x8"), konane.Limit(movetime=0.1))
            async with engine.analysis(konane.Position("8x8")) as analysis:
                async for info in analysis:
                    if info.get("depth", 0) >= 8:
                        analysis.stop()

    asyncio.run(main())

Ctrl-C reaches the event loop, not the worker threads: leaving an ``async with`` block stops
the engine's search and its process as the synchronous API does.
"""

from __future__ import annotations

import asyncio
from typing import Any

import konane

__all__ = ["Analysis", "Engine", "check", "play_match", "solve"]


class Analysis:
    """A running analysis, iterated with ``async for``; ``stop()`` asks for the move now,
    ``await wait()`` returns it. Leaving its ``async with`` block stops it."""

    def __init__(self, analysis: konane.Analysis) -> None:
        self._analysis = analysis

    def __aiter__(self) -> Analysis:
        return self

    async def __anext__(self) -> dict[str, Any]:
        info = await asyncio.to_thread(next, self._analysis, None)
        if info is None:
            raise StopAsyncIteration
        return dict(info)

    @property
    def info(self) -> dict[str, Any] | None:
        """The last ``info`` line read."""
        info = self._analysis.info
        return None if info is None else dict(info)

    def stop(self) -> None:
        """Asks the engine for its move now; the iteration ends when it comes."""
        self._analysis.stop()

    async def wait(self) -> konane.Move | None:
        """Waits for the search's end and returns the engine's move."""
        return await asyncio.to_thread(self._analysis.wait)

    async def __aenter__(self) -> Analysis:
        return self

    async def __aexit__(self, *exc: object) -> None:
        self._analysis.stop()
        await asyncio.to_thread(self._analysis.__exit__, None, None, None)


class Engine:
    """A ``konane.Engine`` whose calls are awaited; make one with ``await Engine.start(...)``,
    which takes the arguments of ``konane.Engine``."""

    def __init__(self, engine: konane.Engine) -> None:
        self.engine = engine

    @classmethod
    async def start(cls, command: Any, **options: Any) -> Engine:
        """Starts the engine and checks its handshake, as ``konane.Engine(command, ...)``."""
        return cls(await asyncio.to_thread(konane.Engine, command, **options))

    @property
    def name(self) -> str:
        """The engine's name."""
        return self.engine.name

    @property
    def id(self) -> dict[str, str]:
        """What the engine's ``id`` lines said."""
        return self.engine.id

    @property
    def options(self) -> dict[str, dict[str, Any]]:
        """The options the engine announced."""
        return self.engine.options

    async def configure(self, options: dict[str, Any]) -> None:
        """Sets options, checked against what the engine announced."""
        await asyncio.to_thread(self.engine.configure, options)

    async def play(
        self, position: konane.Position, limit: konane.Limit, *, ponder: bool = False
    ) -> konane.PlayResult:
        """The engine's move under ``limit``, checked legal; with ``ponder`` it thinks on."""
        return await asyncio.to_thread(self.engine.play, position, limit, ponder=ponder)

    async def analyse(
        self, position: konane.Position, limit: konane.Limit, *, multipv: int = 1
    ) -> list[Any]:
        """The engine's last report of each of its ``multipv`` best lines."""
        return await asyncio.to_thread(self.engine.analyse, position, limit, multipv=multipv)

    def analysis(
        self, position: konane.Position, limit: konane.Limit | None = None, *, multipv: int = 1
    ) -> Analysis:
        """A running analysis to iterate with ``async for``."""
        return Analysis(self.engine.analysis(position, limit, multipv=multipv))

    async def quit(self) -> None:
        """Asks the engine to quit and makes sure it is gone."""
        await asyncio.to_thread(self.engine.quit)

    async def __aenter__(self) -> Engine:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.quit()


async def solve(*args: Any, **options: Any) -> konane.Solution:
    """``konane.solve``, awaited."""
    return await asyncio.to_thread(konane.solve, *args, **options)


async def check(*args: Any, **options: Any) -> list[konane.CheckResult]:
    """``konane.check``, awaited."""
    return await asyncio.to_thread(konane.check, *args, **options)


async def play_match(*args: Any, **options: Any) -> list[konane.Game]:
    """``konane.play_match``, awaited."""
    return await asyncio.to_thread(konane.play_match, *args, **options)
