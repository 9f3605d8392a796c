"""The `pykafka` source: planning on the driver, reading on the executors.

`reader` holds Spark's batch and stream readers (offsets planned on the driver), `partition_reader` and
`arrow` the executor side (Fetch → Arrow), `offsets` the starting/ending offset resolution, `group_mode`
the consumer-group membership of `groupMode`, `lag` the lag a query reports. Modules are imported by
their full path: Spark's short-lived driver workers load only what a call needs.
"""
