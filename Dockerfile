# syntax=docker/dockerfile:1
# The base of both stages: any Debian-like image with python3 (3.11 or newer) and its venv
# module. By default the registry's slim Python image (named in full, so podman needs no
# short-name alias); where no registry is reachable, .ci/container.sh bootstraps one from
# Debian packages and passes it in (--build-arg BASE_IMAGE=localhost/paperclub-base:bookworm).
ARG BASE_IMAGE=docker.io/library/python:3.12-slim

# Build stage: a wheel and its dependencies, compiled where needed, kept out of the final image.
FROM ${BASE_IMAGE} AS build
WORKDIR /src
ENV PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_CACHE_DIR=1
# python3, not python: Debian's own python3 has no `python` command.
RUN python3 -m venv /opt/venv
# The dependencies first, in a layer of their own, so that a change to the code alone
# rebuilds only the last layer (the list comes from pyproject.toml, not a copy of it).
COPY pyproject.toml ./
# A machine whose outgoing TLS a proxy re-signs (CI's does) hands pip its CA bundle as a build
# secret (--secret id=ca-bundle,src=/etc/ssl/certs/ca-certificates.crt): a secret is mounted for
# one RUN and kept in no layer, so the image never trusts that proxy. Without it, pip trusts
# what it always does.
RUN --mount=type=secret,id=ca-bundle \
    if [ -f /run/secrets/ca-bundle ]; then export PIP_CERT=/run/secrets/ca-bundle; fi \
    && python3 -c "import tomllib; p = tomllib.load(open('pyproject.toml', 'rb'))['project']; \
print('\n'.join(p['dependencies'] + p['optional-dependencies']['postgres'] \
+ p['optional-dependencies']['semantic']))" > /tmp/requirements.txt \
    && /opt/venv/bin/pip install -r /tmp/requirements.txt
# The wheel: setup.py's build hook copies migrations/ into it as bot/migrations.
COPY README.md setup.py MANIFEST.in ./
COPY bot ./bot
COPY migrations ./migrations
RUN --mount=type=secret,id=ca-bundle \
    if [ -f /run/secrets/ca-bundle ]; then export PIP_CERT=/run/secrets/ca-bundle; fi \
    && /opt/venv/bin/pip wheel --no-deps --wheel-dir /tmp/wheels . \
    && /opt/venv/bin/pip install "$(echo /tmp/wheels/paperclub-*.whl)[postgres,semantic]" \
    # A wheel without its migrations would build and then fail at every start: fail here.
    # -I: the installed bot, not ./bot beside it.
    && cd / && /opt/venv/bin/python -I -c 'from bot.db.migrate import migrations_dir; migrations_dir()'

# Runtime stage: the virtualenv, a non-root user and a volume for the database.
FROM ${BASE_IMAGE}
# The HTTP server (/healthz, /metrics, HTTP mode's /slack/events) on every interface: inside a
# container, 127.0.0.1 would be reachable from nowhere but the container itself.
ENV PATH=/opt/venv/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    PAPERCLUB_DATABASE_URL=sqlite:////data/paperclub.db \
    PAPERCLUB_HTTP_HOST=0.0.0.0
# A fixed uid and gid, so that the volume's files keep their owner across image rebuilds, and
# a numeric USER, so that a runtime can tell it is not root without reading /etc/passwd.
RUN groupadd --gid 10001 paperclub \
    && useradd --uid 10001 --gid 10001 --home-dir /app --no-create-home \
       --shell /usr/sbin/nologin paperclub \
    && mkdir -p /data /app \
    && chown 10001:10001 /data
COPY --from=build /opt/venv /opt/venv
WORKDIR /app
USER 10001:10001
VOLUME ["/data"]
EXPOSE 3000
# GET /healthz (200: the database answers and the scheduler's heartbeat is fresh; a 503 or no
# answer makes urlopen raise, so the check fails). The standard library only: no curl in here.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:%s/healthz' % (os.environ.get('PAPERCLUB_HTTP_PORT') or '3000'), timeout=4)"]
ENTRYPOINT ["paperclub"]
CMD ["run"]
