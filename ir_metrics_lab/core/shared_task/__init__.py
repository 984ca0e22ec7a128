"""A shared task in one class period, its pure logic (no Streamlit): the collection and topics read and checked
(collection.py), runs checked on arrival (runs.py), the pool (pooling.py), judges assigned (assignment.py), judges'
agreement (agreement.py), the qrels built from judgments (judgments.py) and the leave-one-run-out pooling bias
(bias.py). Its tables are in ir_metrics_lab.core.classroom.task_store.
"""
