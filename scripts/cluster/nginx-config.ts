/**
 * The nginx configuration in front of the instances (`npm run cluster`, docs/operations.md explains each line).
 * nginx's open-source edition has no active health checks: the cluster's supervisor polls each instance's /readyz
 * and writes a new configuration (an instance out of rotation is `down`) and reloads nginx, which finishes the
 * requests its old workers hold while new workers take new ones.
 */
export interface UpstreamServer {
  /** host:port of an instance. */
  address: string;
  /** Out of rotation: draining before a stop, not ready, or dead. */
  down: boolean;
}

export interface NginxSettings {
  /** Where nginx keeps its pid, logs and temporary files. */
  dir: string;
  /** The public port (all interfaces' loopback only: 127.0.0.1). */
  port: number;
  /** A loopback port answering /generation with `generation`: tells when a reload has taken effect. */
  statusPort: number;
  generation: number;
  servers: readonly UpstreamServer[];
  /**
   * The instance whose development sign-in provider serves every sign-in (its state lives in one process's
   * memory): only where the instances run the development sign-in.
   */
  devIdp?: string | undefined;
  /** Workers; `auto` is one per core. */
  workers?: number | 'auto';
  /** Open connections per worker: each live stream holds two (the browser's and the instance's). */
  workerConnections?: number;
}

/** The whole configuration file's text. */
export function nginxConfig(s: NginxSettings): string {
  const connections = s.workerConnections ?? 16_384;
  const servers = s.servers.map(
    (server) => `    server ${server.address} max_fails=1 fail_timeout=2s${server.down ? ' down' : ''};`,
  );
  const temp = (name: string) => `${s.dir}/temp/${name}`;
  return `# Written by scripts/cluster (generation ${s.generation}); docs/operations.md explains it.
worker_processes ${s.workers ?? 'auto'};
worker_rlimit_nofile ${connections * 2 + 1024};
# A reload lets old workers finish what they hold; a live stream would keep one alive for ever, so it ends after 10 s
# (the browser reconnects to a new worker and catches up from the versions it holds).
worker_shutdown_timeout 10s;
pid ${s.dir}/nginx.pid;
error_log ${s.dir}/error.log warn;

events {
  worker_connections ${connections};
}

http {
  access_log off;
  client_body_temp_path ${temp('body')};
  proxy_temp_path ${temp('proxy')};
  fastcgi_temp_path ${temp('fastcgi')};
  uwsgi_temp_path ${temp('uwsgi')};
  scgi_temp_path ${temp('scgi')};
  server_tokens off;

  upstream homecooked {
${servers.join('\n')}
    # Idle connections kept open to the instances, per worker (no handshake per request).
    keepalive 64;
  }
${
  s.devIdp
    ? `
  upstream homecooked_dev_idp {
    server ${s.devIdp};
  }
`
    : ''
}
  server {
    listen 127.0.0.1:${s.port};
    # Photos are the largest bodies; the instances refuse anything larger themselves.
    client_max_body_size 16m;

    proxy_http_version 1.1;
    proxy_set_header Connection "";
    proxy_set_header Host $http_host;
    # The instances trust one hop (TRUST_PROXY=1): the client's address is the last one added here.
    proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
    proxy_set_header X-Forwarded-Proto $scheme;
    proxy_connect_timeout 2s;
    # Live streams send a heartbeat every 20 s; anything silent for longer than this is gone.
    proxy_read_timeout 75s;
    proxy_send_timeout 75s;
    # An instance that refuses the connection or answers 502/503/504 (stopping, or lost its database): the next
    # one gets the request. A POST is passed on only if the first instance never received it (nginx's rule), so
    # a write is never done twice; the client repeats an order itself, with its idempotency key.
    proxy_next_upstream error timeout http_502 http_503 http_504;
    proxy_next_upstream_tries 3;
    proxy_next_upstream_timeout 10s;

    location / {
      proxy_pass http://homecooked;
    }

    # Live streams: never buffered (the instances also say X-Accel-Buffering: no), never cached.
    location = /api/live {
      proxy_pass http://homecooked;
      proxy_buffering off;
      proxy_cache off;
    }
${
  s.devIdp
    ? `
    location /dev-idp/ {
      proxy_pass http://homecooked_dev_idp;
    }
`
    : ''
}  }

  server {
    listen 127.0.0.1:${s.statusPort};
    location = /generation {
      return 200 "${s.generation}";
    }
  }
}
`;
}
