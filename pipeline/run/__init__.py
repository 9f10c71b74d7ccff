"""Runs on top of the pipeline: ``rate`` (one rating period, any engine), ``check`` (validate
without rating), ``convert`` (any event format to TRF) and ``dask`` (the Dask executor)."""
