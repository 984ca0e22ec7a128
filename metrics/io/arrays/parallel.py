"""The threading helper: split a large job in two halves, one per core."""

from __future__ import annotations

from collections.abc import Callable

PARALLEL_ROWS = 1 << 20  # below this, a second thread costs more than it saves


def by_halves(work: Callable[[int, int], object], count: int, rows: int) -> list:
    """[work(0, count)], or for a large input (``rows``) [work(0, count // 2), work(count // 2, count)]: the first
    half here, the second in a helper thread. numpy and pyarrow release the GIL in their loops, so the halves run
    on two cores. An exception in either half is raised here."""
    if rows < PARALLEL_ROWS or count < 2:
        return [work(0, count)]
    import threading

    results: list = [None, None]
    failure: list[BaseException] = []

    def second_half() -> None:
        try:
            results[1] = work(count // 2, count)
        except BaseException as error:  # handed to the caller's thread
            failure.append(error)

    helper = threading.Thread(target=second_half, name="metrics-second-half", daemon=True)
    helper.start()
    try:
        results[0] = work(0, count // 2)
    finally:
        helper.join()
    if failure:
        raise failure[0]
    return results
