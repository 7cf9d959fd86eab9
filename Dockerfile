# syntax=docker/dockerfile:1

# ---- build stage -----------------------------------------------------------
# edition 2024 / rust-version 1.94: needs a current stable toolchain.
# gcc (for the bundled SQLite C source) is part of this image.
FROM rust:1-bookworm AS build
WORKDIR /src

COPY Cargo.toml Cargo.lock ./
COPY .cargo ./.cargo
COPY src ./src
# Cargo.toml names the benchmark programs as targets: the manifest needs them present.
COPY bench/rust ./bench/rust

# The cargo registry and target/ live in BuildKit cache mounts, so a rebuild
# after a source change reuses the compiled dependencies. The binary is copied
# out of the cache mount so that the next stage can see it.
RUN --mount=type=cache,target=/usr/local/cargo/registry \
    --mount=type=cache,target=/usr/local/cargo/git \
    --mount=type=cache,target=/src/target \
    cargo build --release --locked \
 && install -D -m 0755 target/release/litewire /out/litewire

# ---- runtime stage ---------------------------------------------------------
FROM debian:bookworm-slim

# curl is only for the HEALTHCHECK (plain http to 127.0.0.1, so no CA bundle).
RUN apt-get update \
 && apt-get install -y --no-install-recommends curl \
 && rm -rf /var/lib/apt/lists/* \
 && groupadd --system --gid 10001 litewire \
 && useradd --system --uid 10001 --gid litewire --home-dir /data --no-create-home \
        --shell /usr/sbin/nologin litewire \
 && mkdir -p /data \
 && chown litewire:litewire /data

COPY --from=build /out/litewire /usr/local/bin/litewire

ENV LITEWIRE_DB=/data/litewire.db \
    LITEWIRE_PG_LISTEN=0.0.0.0:5432 \
    LITEWIRE_HTTP_LISTEN=0.0.0.0:8080

USER litewire:litewire
WORKDIR /data
VOLUME /data
EXPOSE 5432 8080

HEALTHCHECK --interval=10s --timeout=3s --start-period=5s --retries=5 \
    CMD curl -fsS --max-time 2 -o /dev/null http://127.0.0.1:8080/health || exit 1

# The server checkpoints the WAL on SIGTERM; exec form keeps it PID 1 so it
# receives the signal directly.
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/local/bin/litewire"]
