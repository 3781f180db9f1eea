"""The chat client cannot hang and never lets a malformed reply escape (issue 33): a total deadline per request
(connect, send, every read), a response-size limit, and every malformed 200 reply an `EndpointError` with its cause --
tested against a local threaded HTTP server that drips its body or its headers, answers JSON nested 100,000 deep,
`"usage": "lots"`, a `content` that is not text, or a body of 200 MB; and through the callers that used to see
`RecursionError` / `AttributeError`: the LLM formatter (`format_plan(..., formatter='llm')`), the RL reward
(`score_rollout(llm=...)`) and the LLM teacher. The client is the `openai` package's on an `httpx.Client` of ours; also
checked here: the deadline over TLS (the standard-library client this one replaced let a TLS drip run 49 s past a 1 s
deadline), proxies from the environment, one budget for the openai client's retries and our re-asks, nothing left
behind (threads, sockets)."""
import json, os, resource, shutil, socket, socketserver, ssl, subprocess, threading, time
from http.server import BaseHTTPRequestHandler

import openai  # noqa: F401 -- star.endpoint imports it on the first call; here, so no timed call pays for the import
import pytest

from star.endpoint import ChatEndpoint, EndpointError


def completion(content, finish="stop", usage=None):
    return {"id": "x", "object": "chat.completion", "created": 0, "model": "m",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": finish}],
            "usage": usage if usage is not None else {"prompt_tokens": 3, "completion_tokens": 2, "total_tokens": 5}}


class Misbehaving(BaseHTTPRequestHandler):
    "Answers every POST the server's way (`server.mode`, `server.arg`); counts the requests."
    protocol_version = "HTTP/1.1"
    def log_message(self, *a): pass
    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        srv = self.server
        with srv.lock: srv.n += 1
        mode, arg = srv.mode, srv.arg
        try:
            if mode == "drip-headers":
                for b in b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-Pad: " + b"x" * 400:
                    self.wfile.write(bytes([b])); self.wfile.flush(); time.sleep(arg)
            elif mode == "drip":
                data = json.dumps(completion("slow")).encode()
                self.send_response(200); self.send_header("Content-Length", str(len(data))); self.end_headers()
                for b in data: self.wfile.write(bytes([b])); self.wfile.flush(); time.sleep(arg)
            elif mode == "huge":          # `arg` bytes, no length announced: read until the server closes
                self.send_response(200); self.send_header("Content-Type", "application/json")
                self.send_header("Connection", "close"); self.end_headers()
                self.wfile.write(b'{"choices": [{"message": {"role": "assistant", "content": "')
                for _ in range(arg // 65536): self.wfile.write(b"x" * 65536)
                self.wfile.write(b'"}}]}')
                self.close_connection = True
            elif mode == "script":        # `arg`: a list of (status, body), one per request (then 200 "ok")
                with srv.lock: status, body = arg.pop(0) if arg else (200, completion("ok"))
                data = body if isinstance(body, bytes) else json.dumps(body).encode()
                self.send_response(status); self.send_header("Content-Type", "application/json")
                self.send_header("Retry-After-Ms", "5")   # the back-off a server asks for (honoured): keeps it short
                self.send_header("Content-Length", str(len(data))); self.end_headers(); self.wfile.write(data)
            elif mode == "proxy":         # a forward proxy's view: the full URL in the request line
                data = json.dumps(completion(f"proxied {self.path}")).encode()
                self.send_response(200); self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data))); self.end_headers(); self.wfile.write(data)
            else:                         # "body": `arg` as the body of a 200
                data = arg if isinstance(arg, bytes) else json.dumps(arg).encode()
                self.send_response(200); self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data))); self.end_headers(); self.wfile.write(data)
        except OSError: pass              # the client hung up (a deadline, the size limit): as it should


@pytest.fixture
def server():
    "Start a server in `mode` with `arg`; returns its base URL. Stopped after the test."
    started = []
    def start(mode, arg=None, tls=None):
        srv = socketserver.ThreadingTCPServer(("127.0.0.1", 0), Misbehaving)
        srv.daemon_threads, srv.mode, srv.arg, srv.n, srv.lock = True, mode, arg, 0, threading.Lock()
        if tls is not None:               # (cert, key) files: HTTPS
            ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH); ctx.load_cert_chain(*tls)
            srv.socket = ctx.wrap_socket(srv.socket, server_side=True)
        threading.Thread(target=srv.serve_forever, daemon=True).start()
        started.append(srv)
        return f"{'https' if tls else 'http'}://{'localhost' if tls else '127.0.0.1'}:{srv.server_address[1]}/v1", srv
    yield start
    for s in started: s.shutdown(); s.server_close()


def _fails(ep):
    "Call `ep`; returns (seconds, EndpointError). Anything else -- a reply, another exception -- fails the test."
    t0 = time.monotonic()
    with pytest.raises(EndpointError) as e: ep.chat([{"role": "user", "content": "x"}])
    return time.monotonic() - t0, e.value


@pytest.mark.parametrize("mode", ["drip", "drip-headers"])
def test_a_dripping_server_cannot_hold_a_call_past_its_deadline(server, mode):
    """One byte every 0.25 s: each read returns quickly, so a per-read timeout never fires (a `timeout=3` call was held
    86.6 s by a body drip, 40.1 s by a header drip). The deadline is the whole request's; with one retry, two. (The
    1.5 s of slack is for a loaded 2-core machine: the full suite once took 3.0 s here for a 2 s deadline.)"""
    url, srv = server(mode, 0.25)
    secs, err = _fails(ChatEndpoint(url, "m", api_key_env=None, timeout=2.0, max_retries=0))
    assert secs < 2.0 + 1.5 and err.reason == "timeout" and "no whole reply within 2 s" in str(err), (secs, str(err))
    secs, err = _fails(ChatEndpoint(url, "m", api_key_env=None, timeout=1.0, max_retries=1))
    assert secs < 2 * 1.0 + 0.5 + 1.5 and srv.n == 3, (secs, srv.n)     # two deadlines and one back-off of <= 0.5 s


@pytest.mark.parametrize("body, cause", [
    (b'{"choices": ' + b"[" * 100_000 + b"]" * 100_000 + b"}", "an unreadable reply (JSON nested too deep to decode)"),
    (completion("ok", usage="lots"), "an unreadable reply (usage is not token counts: 'lots')"),
    (completion("ok", usage={"total_tokens": "many"}), "usage is not token counts"),
    (completion(["a", "list"]), "a reply whose content is not text (a JSON list)"),
    (completion({"text": "a dict"}), "a reply whose content is not text (a JSON dict)"),
    (completion(7), "a reply whose content is not text (a JSON int)"),
    (completion("ok", finish=["stop"]), "an unreadable reply (finish_reason ['stop'])"),
    ({"choices": [None]}, "choices[0].message is not an object"),
    ([1, 2], "a JSON list, not an object"),
    (b"\xff\xfe not UTF-8", "not JSON"),
])
def test_every_malformed_reply_is_an_endpoint_error_with_its_cause(server, body, cause):
    url, srv = server("body", body)
    _, err = _fails(ChatEndpoint(url, "m", api_key_env=None, max_retries=1))
    assert cause in str(err) and srv.n == 2, str(err)                        # asked again, then named


def test_a_huge_body_is_cut_off_at_the_limit(server):
    "A 200 MB reply was read whole (+557 MB of memory); now the client stops reading at its limit."
    url, srv = server("huge", 200 * 2**20)
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    _, err = _fails(ChatEndpoint(url, "m", api_key_env=None, max_retries=0, max_response_bytes=4 * 2**20))
    assert err.reason == "a reply over the size limit" and "more than 4,194,304 bytes" in str(err), str(err)
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - rss < 100 * 2**10    # < 100 MiB more (KiB on Linux)
    url, _ = server("huge", 8 * 2**20)                     # the default limit (32 MiB) takes an 8 MiB reply
    assert len(ChatEndpoint(url, "m", api_key_env=None, max_retries=0).chat([{"role": "user", "content": "x"}])) == 8 * 2**20


def test_a_good_reply_still_reads(server):
    url, srv = server("body", completion("Day 1: ...", usage={"prompt_tokens": 3, "completion_tokens": 2, "total_tokens": 5,
                                                              "prompt_tokens_details": None}))
    r = ChatEndpoint(url, "m", api_key_env=None).complete([{"role": "user", "content": "x"}], temperature=0, top_k=20)
    assert (r.content, r.finish_reason, r.usage["total_tokens"], srv.n) == ("Day 1: ...", "stop", 5, 1)


@pytest.fixture
def tls_cert(tmp_path, monkeypatch):
    """A self-signed certificate for localhost (`openssl`), trusted by the client through `SSL_CERT_FILE` (httpx reads it:
    `trust_env`). Returns (cert, key) paths."""
    if shutil.which("openssl") is None: pytest.skip("needs the openssl command to make a test certificate")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days", "2",
                    "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost"], check=True, capture_output=True)
    monkeypatch.setenv("SSL_CERT_FILE", str(cert))
    return cert, key


@pytest.mark.parametrize("mode", ["drip", "drip-headers"])
def test_the_deadline_holds_over_tls_and_the_next_request_reads(server, tls_cert, mode):
    """Over HTTPS the connection is a TLS socket: the watchdog must still cut it (the standard-library client this one
    replaced shut down a socket object that TLS had detached: a TLS body drip held a 1 s call 48.9 s and returned the
    reply). After the deadline the same endpoint sends its next request on a new connection."""
    url, srv = server(mode, 0.25, tls=tls_cert)
    ep = ChatEndpoint(url, "m", api_key_env=None, timeout=1.0, max_retries=0)
    ep.client                                                                   # built (imports openai) before the clock
    secs, err = _fails(ep)
    assert secs < 1.0 + 1.0 and err.reason == "timeout", (secs, str(err))
    srv.mode = "body"; srv.arg = completion("Day 1: ...")
    assert ep.chat([{"role": "user", "content": "x"}]) == "Day 1: ..." and ep.n_requests == 2


def test_retries_and_reasks_share_one_budget(server):
    """The openai client retries a 5xx, we re-ask after an unusable reply: together at most `max_retries + 1` requests,
    the failure named is the last one; with one more request allowed the good reply is read."""
    script = [(500, {"error": "boom"}), (200, b'{"choi'), (503, {"error": "down"}), (200, completion("Day 1: ..."))]
    url, srv = server("script", list(script))
    _, err = _fails(ChatEndpoint(url, "m", api_key_env=None, max_retries=2))
    assert srv.n == 3 and err.reason == "HTTP 503" and "no usable reply in 3 attempts" in str(err), (srv.n, str(err))
    url, srv = server("script", list(script))
    ep = ChatEndpoint(url, "m", api_key_env=None, max_retries=3)
    assert ep.chat([{"role": "user", "content": "x"}]) == "Day 1: ..." and srv.n == ep.n_requests == 4
    url, srv = server("script", [(401, {"error": "bad key"})])                  # a client error: at once
    _, err = _fails(ChatEndpoint(url, "m", api_key_env=None, max_retries=3))
    assert srv.n == 1 and err.reason == "HTTP 401" and "bad key" in str(err), str(err)


def test_proxies_come_from_the_environment(server, monkeypatch):
    "`http_proxy` routes a request through the proxy (the full URL in its request line); `no_proxy` bypasses it."
    url, srv = server("proxy")
    monkeypatch.setenv("http_proxy", url.removesuffix("/v1"))
    monkeypatch.setenv("no_proxy", "localhost")
    reply = ChatEndpoint("http://api.example.invalid/v1", "m", api_key_env=None, max_retries=0).chat([{"role": "user", "content": "x"}])
    assert reply == "proxied http://api.example.invalid/v1/chat/completions" and srv.n == 1, reply
    monkeypatch.setenv("no_proxy", "api.example.invalid")
    _, err = _fails(ChatEndpoint("http://api.example.invalid/v1", "m", api_key_env=None, max_retries=0))
    assert err.reason == "connection error" and srv.n == 1, str(err)            # straight to a host that does not exist


def test_nothing_is_left_behind(server):
    """Each request has its watchdog (a timer thread) and a duplicate of its socket: both end with the request, whether
    it was read, or cut at its deadline."""
    url, srv = server("body", completion("ok"))
    ep = ChatEndpoint(url, "m", api_key_env=None, timeout=0.5, max_retries=0)
    ep.chat([{"role": "user", "content": "x"}])                                 # the client is built
    fds = lambda: len(os.listdir("/proc/self/fd")) if os.path.isdir("/proc/self/fd") else 0
    time.sleep(0.5)                                                              # the server's thread of that request ends
    threads, files = threading.active_count(), fds()
    for i in range(30):
        srv.mode, srv.arg = ("drip", 0.05) if i % 10 == 0 else ("body", completion("ok"))
        try: ep.chat([{"role": "user", "content": "x"}])
        except EndpointError as e: assert e.reason == "timeout", str(e)
    srv.mode = "body"
    time.sleep(1.0)                                                              # the server's own threads end
    assert threading.active_count() <= threads and fds() <= files and ep.n_requests == 31, (threading.active_count(), threads, fds(), files)


# ------------------------------------------------------------------ the callers: a named outcome, never another exception
@pytest.mark.parametrize("body", [b'{"choices": ' + b"[" * 100_000 + b"]" * 100_000 + b"}", completion("[]", usage="lots"),
                                  completion([{"days": 1}])])
def test_the_callers_see_a_named_failure(server, tmp_path, body):
    """`format_plan(..., formatter='llm')`, `score_rollout(llm=...)` and the teacher: the reply that used to escape
    as RecursionError / AttributeError (or a `content` that is not text, which passed through) is a plan not read,
    with the reason, or an `EndpointError`."""
    from star.formatter import format_plan, llm_formatter
    from star.tasks import load_tasks
    from star.teacher import llm_solve, openai_chat
    url, _ = server("body", body)
    task = load_tasks("validation")[0]
    llm = llm_formatter(url, "m", api_key_env=None, cache_dir=tmp_path, max_retries=0, max_samples=1)
    fp = format_plan("Day 1: somewhere nice", task, formatter="llm", llm=llm)
    assert fp.plan is None and fp.reason and "formatter endpoint" in fp.reason, fp
    from star.agent import Rollout
    from star.rl import score_rollout
    ro = Rollout(task=task, prompt_ids=[], answer="Day 1: somewhere nice")
    res = score_rollout(ro, formatter="llm", llm=llm)
    assert res.delivered is False
    traj = llm_solve(task, openai_chat(url, "m", api_key_env=None, max_retries=0))   # the episode ends, named
    assert traj.termination == "generation_error" and traj.meta["error"].startswith("EndpointError: "), traj.meta
    assert "no usable reply in 1 attempts" in traj.meta["error"]
