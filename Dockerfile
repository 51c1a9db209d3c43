# syntax=docker/dockerfile:1
# fleetplan as a container image: the static (musl) binary on distroless, run as a non-root
# user from /src. Mount the repository to check there:
#
#   docker build -t fleetplan .
#   docker run --rm -v "$PWD:/src" fleetplan check -f .
#
# The release workflow builds it on a native runner per architecture (linux/amd64,
# linux/arm64) and pushes one multi-arch image to GHCR.

FROM rust:1-slim-bookworm AS build
# The build context has no .git (.dockerignore), so `fleetplan --version` names the commit
# only when the build passes it: --build-arg FLEETPLAN_COMMIT=$(git rev-parse --short HEAD).
ARG FLEETPLAN_COMMIT=unknown
SHELL ["/bin/bash", "-o", "pipefail", "-c"]
# Rust's musl targets link their own C library, so the binary is static; musl-tools gives the
# musl-gcc that builds mimalloc's C sources (the binary's allocator, Cargo.toml) for it, named
# below for the cc crate, which looks for aarch64's under a cross compiler's name.
RUN apt-get update \
    && apt-get install -y --no-install-recommends musl-tools=1.2.3-1 \
    && rm -rf /var/lib/apt/lists/* \
    && rustup target add "$(uname -m)-unknown-linux-musl"
WORKDIR /build
COPY . .
RUN --mount=type=cache,target=/usr/local/cargo/registry \
    --mount=type=cache,target=/build/target \
    target="$(uname -m)-unknown-linux-musl" \
    && export "CC_${target//-/_}=musl-gcc" \
    && FLEETPLAN_COMMIT="$FLEETPLAN_COMMIT" cargo build --locked --profile dist --target "$target" \
    && cp "target/$target/dist/fleetplan" /fleetplan

FROM gcr.io/distroless/static-debian12:nonroot
LABEL org.opencontainers.image.title="fleetplan" \
      org.opencontainers.image.description="Offline placement planner for Kubernetes fleets: Federation v1, kubefed, OCM, Karmada" \
      org.opencontainers.image.licenses="Apache-2.0"
COPY --from=build /fleetplan /usr/local/bin/fleetplan
# distroless' nonroot user (65532). Files it writes into a mounted /src (--out) need a
# directory that user may write, or `docker run --user "$(id -u):$(id -g)"`.
USER 65532:65532
WORKDIR /src
ENTRYPOINT ["fleetplan"]
CMD ["--help"]
