# syntax=docker/dockerfile:1
# Bindery in a container: a static binary (.ci/build-static, the script CI builds and tests it
# with) on an empty base image, running as an unprivileged user with everything it writes under
# the /data volume. See docs/operations.md.

FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG VERSION=dev
ARG COMMIT=unknown
RUN VERSION="$VERSION" COMMIT="$COMMIT" bash .ci/build-static /out/bindery \
	&& mkdir -p /out/data && chown 65534:65534 /out/data

FROM scratch
COPY --from=build /etc/ssl/certs/ca-certificates.crt /etc/ssl/certs/ca-certificates.crt
COPY --from=build /out/bindery /bindery
COPY --from=build --chown=65534:65534 /out/data /data
# nobody:nogroup. The image has no shell and no /etc/passwd: nothing to log in to.
USER 65534:65534
WORKDIR /data
ENV BINDERY_ADDR=:8080 \
	BINDERY_DATABASE=/data/bindery.db \
	BINDERY_FILES=/data/files \
	TMPDIR=/data
VOLUME /data
EXPOSE 8080
# `bindery healthcheck` GETs /readyz on the listen address (BINDERY_ADDR): healthy while the
# database answers. The image has no curl.
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 CMD ["/bindery", "healthcheck"]
ENTRYPOINT ["/bindery"]
CMD ["serve"]
