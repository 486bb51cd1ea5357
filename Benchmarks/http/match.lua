-- wrk script: POST a deep link to the route-matching endpoint.
wrk.method = "POST"
wrk.body = '{"url":"myapp://task/task-3?source=homescreen"}'
wrk.headers["Content-Type"] = "application/json"
