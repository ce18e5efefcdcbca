-- A POST with a JSON body for wrk (bench/web/run.sh): the body comes from SHELF_BENCH_BODY, as the browser sends it.
wrk.method = "POST"
wrk.body = os.getenv("SHELF_BENCH_BODY")
wrk.headers["Content-Type"] = "application/json"
