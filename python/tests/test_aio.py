"""konane.aio: the engine calls awaited, the event loop going on while the engine thinks."""

import asyncio

import pytest

import konane
import konane.aio


def test_an_engine_plays_and_analyses_under_asyncio(engine_path):
    async def main():
        ticks = 0

        async def clock():
            nonlocal ticks
            while True:
                await asyncio.sleep(0.01)
                ticks += 1

        ticking = asyncio.create_task(clock())
        position = konane.Position("8x8")
        async with await konane.aio.Engine.start(engine_path) as engine:
            assert engine.name == engine.id["name"]
            result = await engine.play(position, konane.Limit(movetime=0.2))
            assert result.move in position.legal_moves()
            assert ticks > 0, "the loop went on while the engine thought"
            lines = await engine.analyse(position, konane.Limit(depth=3), multipv=2)
            assert [line["multipv"] for line in lines] == [1, 2]
            depths = set()
            async with engine.analysis(position) as analysis:
                async for info in analysis:
                    depths.add(info.get("depth"))
                    if len(depths - {None}) >= 3:
                        analysis.stop()
                assert await analysis.wait() in position.legal_moves()
            solved = await konane.aio.solve(konane.Position.from_string("b3/4/4/3w b"))
            assert solved.result == "loss"
        ticking.cancel()

    asyncio.run(main())


def test_leaving_the_block_stops_an_endless_analysis_and_the_engine(engine_path):
    async def main():
        async with await konane.aio.Engine.start(engine_path) as engine:
            # No limit: only leaving the block ends this search (the test would hang).
            async with engine.analysis(konane.Position("10x10")) as analysis:
                async for _ in analysis:
                    break
        return engine

    engine = asyncio.run(main())
    with pytest.raises(konane.EngineError, match="has quit"):
        engine.engine.play(konane.Position("6x6"), konane.Limit(depth=1))
