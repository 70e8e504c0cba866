# syntax=docker/dockerfile:1
# Build stage: a wheel and its dependencies, compiled where needed, kept out of the final image.
FROM python:3.12-slim AS build
WORKDIR /src
ENV PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_CACHE_DIR=1
COPY pyproject.toml README.md ./
COPY bot ./bot
RUN python -m venv /opt/venv \
    && /opt/venv/bin/pip install --upgrade pip \
    && /opt/venv/bin/pip install '.[postgres]'

# Runtime stage: the virtualenv, the migrations, a non-root user and a volume for the database.
FROM python:3.12-slim
ENV PATH=/opt/venv/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    PAPERCLUB_DATABASE_URL=sqlite:////data/paperclub.db
RUN useradd --system --uid 10001 --home-dir /app --shell /usr/sbin/nologin paperclub \
    && mkdir -p /data /app \
    && chown paperclub /data
COPY --from=build /opt/venv /opt/venv
WORKDIR /app
# The bot looks for ./migrations when it is installed as a package.
COPY migrations ./migrations
USER paperclub
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s CMD ["paperclub", "queue", "--limit", "1"]
ENTRYPOINT ["paperclub"]
CMD ["run"]
