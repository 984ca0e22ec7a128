"""A page drawing the four shared-task results panels (ir_metrics_lab.classroom.task_results) for the task that
TASK_RESULTS_DB and TASK_RESULTS_CODE name: tests/test_app_task_results.py runs it in AppTest."""

import os

from ir_metrics_lab.classroom import task_results
from ir_metrics_lab.core.classroom.store import Store
from ir_metrics_lab.core.classroom.task_store import TaskStore

snapshot = TaskStore(Store(os.environ["TASK_RESULTS_DB"])).snapshot(os.environ["TASK_RESULTS_CODE"])
assert snapshot is not None
for panel in (task_results.pool_panel, task_results.leaderboard_panel, task_results.bias_panel):
    panel(snapshot)
task_results.downloads_panel(snapshot)
