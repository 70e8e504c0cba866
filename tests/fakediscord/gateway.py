"""The gateway WebSocket: HELLO, IDENTIFY -> READY + GUILD_CREATE, heartbeats, RESUME, dispatch."""

from __future__ import annotations

import asyncio
import contextlib
import json
import uuid
import zlib
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from .directory import Directory
from .journal import Journal
from .model import JsonDict
from .payloads import current_user, ready_payload

# Opcodes (https://discord.com/developers/docs/topics/opcodes-and-status-codes).
DISPATCH, HEARTBEAT, IDENTIFY, PRESENCE, RESUME, RECONNECT = 0, 1, 2, 3, 6, 7
REQUEST_MEMBERS, INVALID_SESSION, HELLO, HEARTBEAT_ACK = 8, 9, 10, 11


@dataclass
class Connection:
    """One client WebSocket, with the zlib-stream context it asked for (if any)."""

    ws: web.WebSocketResponse
    request: web.Request
    compressor: Any = None
    session: Session | None = None

    async def send(self, payload: JsonDict) -> None:
        """Send one frame: text, or one zlib-stream chunk ending in Z_SYNC_FLUSH."""
        text = json.dumps(payload, separators=(",", ":"))
        if self.compressor is None:
            await self.ws.send_str(text)
        else:
            data = self.compressor.compress(text.encode()) + self.compressor.flush(
                zlib.Z_SYNC_FLUSH
            )
            await self.ws.send_bytes(data)


@dataclass
class Session:
    """An identified session: every dispatch it was sent, kept for RESUME replays."""

    id: str
    intents: int
    seq: int = 0
    sent: list[JsonDict] = field(default_factory=list)
    conn: Connection | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)


# GUILD_MEMBERS, GUILD_PRESENCES and MESSAGE_CONTENT: each needs the portal's switch.
PRIVILEGED = (1 << 1) | (1 << 8) | (1 << 15)


class Gateway:
    """Serves gateway connections and dispatches events to the newest session."""

    def __init__(
        self,
        *,
        journal: Journal,
        directory: Directory,
        token: str,
        heartbeat_ms: int,
        compress: bool,
    ) -> None:
        self._journal, self._dir, self._token = journal, directory, token
        self._heartbeat_ms, self._compress = heartbeat_ms, compress
        self.resume_url = ""
        self.sessions: dict[str, Session] = {}
        self.current: Session | None = None
        self.connections: list[Connection] = []
        self.received: list[JsonDict] = []
        self.opened: list[dict[str, Any]] = []
        self.identifies = self.resumes = self.heartbeats = self.replayed = 0
        # The privileged intents switched on in the developer portal (all of them by default).
        self.privileged_allowed = PRIVILEGED
        self._resume_gate: asyncio.Event | None = None
        self._closing: set[asyncio.Task[Any]] = set()

    @property
    def intents(self) -> int:
        """The intents the newest session identified with (0 before any IDENTIFY)."""
        return 0 if self.current is None else self.current.intents

    # -- connection lifecycle --------------------------------------------------------------

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        """One gateway connection, from HELLO to close."""
        # timeout: how long close() waits for the client's close frame before giving up.
        ws = web.WebSocketResponse(timeout=1.0, compress=False, max_msg_size=0)
        await ws.prepare(request)
        wants_zlib = request.query.get("compress") == "zlib-stream" and self._compress
        conn = Connection(
            ws=ws, request=request, compressor=zlib.compressobj() if wants_zlib else None
        )
        with self._journal.lock:
            self.connections.append(conn)
            self.opened.append({"path": request.path, "query": dict(request.query)})
        self._journal.notify()
        try:
            await conn.send(
                {
                    "op": HELLO,
                    "d": {"heartbeat_interval": self._heartbeat_ms, "_trace": ["fakediscord"]},
                    "s": None,
                    "t": None,
                }
            )
            async for msg in ws:
                if msg.type is not WSMsgType.TEXT:
                    continue  # discord.py sends JSON text only; binary would be ETF
                await self._on_frame(conn=conn, frame=json.loads(msg.data))
        finally:
            with self._journal.lock:
                self.connections.remove(conn)
                if conn.session is not None and conn.session.conn is conn:
                    conn.session.conn = None
            self._journal.notify()
        return ws

    async def _on_frame(self, *, conn: Connection, frame: JsonDict) -> None:
        """Record a client frame and act on its opcode."""
        with self._journal.lock:
            self.received.append(frame)
        self._journal.notify()
        op, data = frame.get("op"), frame.get("d")
        if op == HEARTBEAT:
            with self._journal.lock:
                self.heartbeats += 1
            await conn.send({"op": HEARTBEAT_ACK, "d": None, "s": None, "t": None})
        elif op == IDENTIFY:
            await self._identify(conn=conn, data=data or {})
        elif op == RESUME:
            await self._resume(conn=conn, data=data or {})
        elif op == REQUEST_MEMBERS:
            await self._members_chunk(conn=conn, data=data or {})

    async def _identify(self, *, conn: Connection, data: JsonDict) -> None:
        """IDENTIFY: a new session, READY, then one GUILD_CREATE per guild (4004: bad token)."""
        if data.get("token") != self._token:
            await conn.ws.close(code=4004, message=b"Authentication failed.")
            return
        if conn.session is not None:
            await conn.ws.close(code=4005, message=b"Already authenticated.")
            return
        if int(data.get("intents") or 0) & PRIVILEGED & ~self.privileged_allowed:
            await conn.ws.close(code=4014, message=b"Disallowed intent(s).")
            return
        session = Session(id=uuid.uuid4().hex, intents=int(data.get("intents") or 0))
        guild_ids = list(self._dir.guilds)
        ready = ready_payload(
            user=current_user(base=self._dir.bot),
            guild_ids=guild_ids,
            session_id=session.id,
            resume_url=self.resume_url,
            app_id=self._dir.app_id,
            shard=data.get("shard"),
        )
        async with session.lock:
            with self._journal.lock:
                self.sessions[session.id] = self.current = session
                session.conn, conn.session = conn, session
            await self._send_dispatch(session=session, event="READY", data=ready)
            for guild_id in guild_ids:
                await self._send_dispatch(
                    session=session,
                    event="GUILD_CREATE",
                    data=self._dir.gateway_guild(guild_id=guild_id),
                )
            with self._journal.lock:
                self.identifies += 1
        self._journal.notify()

    async def _resume(self, *, conn: Connection, data: JsonDict) -> None:
        """RESUME: replay what the session missed after `seq`, then RESUMED (else op 9)."""
        session = self.sessions.get(str(data.get("session_id")))
        if session is None or data.get("token") != self._token:
            await conn.send({"op": INVALID_SESSION, "d": False, "s": None, "t": None})
            return
        if self._resume_gate is not None:
            await self._resume_gate.wait()
        async with session.lock:
            with self._journal.lock:
                session.conn, conn.session = conn, session
                last = int(data.get("seq") or 0)
                missed = [f for f in session.sent if f["s"] > last]
            for frame in missed:
                await conn.send(frame)
            await self._send_dispatch(
                session=session, event="RESUMED", data={"_trace": ["fakediscord"]}
            )
            with self._journal.lock:
                self.resumes += 1
                self.replayed += len(missed)
        self._journal.notify()

    async def _members_chunk(self, *, conn: Connection, data: JsonDict) -> None:
        """REQUEST_GUILD_MEMBERS: one GUILD_MEMBERS_CHUNK with the matching members."""
        guild_id = str(data.get("guild_id"))
        guild = self._dir.guild(guild_id=guild_id)
        ids = [str(u) for u in data.get("user_ids") or guild.member_ids]
        query = str(data.get("query") or "").lower()
        members = [
            self._dir.member(guild_id=guild_id, user_id=u)
            for u in ids
            if u in guild.member_ids and self._dir.users[u]["username"].lower().startswith(query)
        ]
        limit = int(data.get("limit") or 0)
        chunk: JsonDict = {
            "guild_id": guild_id,
            "members": members[:limit] if limit else members,
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [u for u in ids if u not in guild.member_ids],
        }
        if data.get("nonce") is not None:
            chunk["nonce"] = data["nonce"]
        if data.get("presences"):
            chunk["presences"] = []
        if conn.session is not None:
            async with conn.session.lock:
                await self._send_dispatch(
                    session=conn.session, event="GUILD_MEMBERS_CHUNK", data=chunk
                )

    # -- dispatching -----------------------------------------------------------------------

    async def _send_dispatch(self, *, session: Session, event: str, data: JsonDict) -> None:
        """Number an event, keep it for replay, send it if connected (caller holds the lock)."""
        with self._journal.lock:
            session.seq += 1
            frame = {"op": DISPATCH, "t": event, "s": session.seq, "d": data}
            session.sent.append(frame)
            conn = session.conn
        if conn is not None:
            with contextlib.suppress(ConnectionResetError):
                await conn.send(frame)

    async def dispatch(self, *, event: str, data: JsonDict, require_client: bool) -> int | None:
        """Send an event to the newest session -> its sequence number (None: no session)."""
        session = self.current
        if session is None:
            if require_client:
                raise RuntimeError(f"{event}: no client has identified with the fake gateway yet")
            return None
        async with session.lock:
            await self._send_dispatch(session=session, event=event, data=data)
            return session.seq

    # -- faults ----------------------------------------------------------------------------

    async def drop(self, *, code: int, abrupt: bool) -> None:
        """Cut the current session's connection; later dispatches wait for a RESUME."""
        session = self.current
        conn = None if session is None else session.conn
        if session is None or conn is None:
            raise RuntimeError("no connected gateway session to drop")
        async with session.lock:
            with self._journal.lock:
                session.conn = None
        if abrupt or conn.request.transport is None:
            # No close frame at all: the client sees the TCP link die (close code 1006).
            if conn.request.transport is not None:
                conn.request.transport.abort()
            return
        # Closing waits for the client's answer; in a test whose client runs on the calling
        # thread that answer only comes once the caller returns, so do not wait for it here.
        task = asyncio.get_running_loop().create_task(
            conn.ws.close(code=code, message=b"fakediscord drop")
        )
        self._closing.add(task)
        task.add_done_callback(self._closing.discard)

    async def send_op(self, *, op: int, data: Any) -> None:
        """Send a bare opcode (RECONNECT, INVALID_SESSION...) on the current connection."""
        session = self.current
        if session is None or session.conn is None:
            raise RuntimeError("no connected gateway session")
        await session.conn.send({"op": op, "d": data, "s": None, "t": None})

    async def hold_resumes(self) -> None:
        """Make RESUMEs wait until release_resumes()."""
        self._resume_gate = asyncio.Event()

    async def release_resumes(self) -> None:
        """Let held RESUMEs go on (and later ones pass straight through)."""
        if self._resume_gate is not None:
            self._resume_gate.set()
            self._resume_gate = None

    async def close_all(self) -> None:
        """Close every connection with 1001 going away (on shutdown)."""
        await self.release_resumes()
        for conn in list(self.connections):
            with contextlib.suppress(Exception):
                await conn.ws.close(code=1001, message=b"fakediscord stopping")
        if self._closing:
            await asyncio.gather(*self._closing, return_exceptions=True)
