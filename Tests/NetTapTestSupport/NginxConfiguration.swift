import Foundation

/// The `nginx.conf` of the ``TLSFront``: one process, everything below its prefix, three TLS listeners on
/// `127.0.0.1` reverse-proxying to httpbin.
///
/// - Errors go to standard error at `notice` (the `OS:` start-up notice is the readiness signal).
/// - Each request is logged to standard output as `<logTag> PORT PROTOCOL STATUS METHOD X-TEST-ID`.
/// - `proxy_pass http://127.0.0.1:<httpbin>` without a URI part forwards the request's own path and query;
///   `proxy_http_version 1.1`, `proxy_buffering off`, `proxy_request_buffering off` (bodies stream both ways),
///   `client_max_body_size 0` (no limit). Every request header is kept; `Host` is set to `$host:$server_port`,
///   the name and port the client used (HTTP/2 carries them in `:authority`, which nginx 1.22 does not turn into
///   a `Host` header itself).
/// - nginx 1.22 (Debian 12) has no `http2 on;` directive: HTTP/2 is the `http2` flag of the `listen` line.
struct NginxConfiguration {
    var prefix: URL
    var upstreamPort: Int
    var ports: (http2: Int, http1: Int, untrusted: Int)
    var trusted: TestCertificateAuthority.Identity
    var untrusted: TestCertificateAuthority.Identity
    var logTag: String

    var text: String {
        let root = prefix.path
        let proxy = """
                location / {
                    proxy_pass http://127.0.0.1:\(upstreamPort);
                }
            """
        return """
            pid \(root)/nginx.pid;
            error_log stderr notice;
            events {
                worker_connections 4096;
            }
            http {
                log_format nettap_front '\(logTag) $server_port $server_protocol $status $request_method $http_x_test_id';
                access_log /dev/stdout nettap_front;
                client_body_temp_path \(root)/client_body;
                proxy_temp_path \(root)/proxy;
                fastcgi_temp_path \(root)/fastcgi;
                uwsgi_temp_path \(root)/uwsgi;
                scgi_temp_path \(root)/scgi;
                client_max_body_size 0;
                proxy_http_version 1.1;
                proxy_buffering off;
                proxy_request_buffering off;
                proxy_set_header Host $host:$server_port;
                ssl_protocols TLSv1.2 TLSv1.3;
                server {
                    listen 127.0.0.1:\(ports.http2) ssl http2;
                    listen 127.0.0.1:\(ports.http1) ssl;
                    ssl_certificate \(trusted.certificate.path);
                    ssl_certificate_key \(trusted.key.path);
            \(proxy)
                }
                server {
                    listen 127.0.0.1:\(ports.untrusted) ssl;
                    ssl_certificate \(untrusted.certificate.path);
                    ssl_certificate_key \(untrusted.key.path);
            \(proxy)
                }
            }

            """
    }
}
