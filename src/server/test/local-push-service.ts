import {
  createECDH,
  createDecipheriv,
  createPublicKey,
  generateKeyPairSync,
  hkdfSync,
  randomBytes,
  sign,
  verify,
  type KeyObject,
} from 'node:crypto';
import { once } from 'node:events';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { PushTarget } from '../notifications/channels.js';

/**
 * A push service in the test process, as Chrome's or Firefox's would be to `web-push`: an HTTPS server (its own
 * self-signed certificate, trusted by a pusher given `cert`, on loopback: the pusher's config must allow that with
 * PUSH_PRIVATE_ADDRESSES=allow) that takes each POST to `/push/<device>`, checks its VAPID
 * signature, decrypts its body (RFC 8291, aes128gcm) with the device's private key, and answers what the test says
 * (201, or 410 for a subscription gone, 500 for an outage).
 */
export interface LocalPushService {
  /** `https://127.0.0.1:<port>`. */
  origin: string;
  /** The certificate (PEM): `createPusher`'s `ca`, or for a server process to trust it (NODE_EXTRA_CA_CERTS). */
  cert: string;
  /** A new device's subscription here: its endpoint and public keys (the private key stays with the service). */
  subscribe(): PushTarget;
  /** What arrived, oldest first. */
  received: ReceivedPush[];
  /** The status to answer for `endpoint` (201 by default). */
  answer(endpoint: string, status: number): void;
  close(): Promise<void>;
}

export interface ReceivedPush {
  endpoint: string;
  /** What the service answered. */
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The VAPID JWT's claims, once its signature checked out against the `k=` key. */
  vapid: { publicKey: string; aud: string; exp: number; sub: string };
  /** The decrypted body. */
  plaintext: string;
}

interface Device {
  ecdh: ReturnType<typeof createECDH>;
  auth: Buffer;
}

export async function startLocalPushService(): Promise<LocalPushService> {
  const { key, cert } = selfSignedCertificate('127.0.0.1');
  const devices = new Map<string, Device>();
  const answers = new Map<string, number>();
  const received: ReceivedPush[] = [];
  let origin = '';

  const server: Server = createServer({ key, cert }, (request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const endpoint = `${origin}${request.url ?? ''}`;
      const device = devices.get(endpoint);
      try {
        if (request.method !== 'POST' || !device)
          throw new Error(`no device at ${request.method} ${endpoint}`);
        const vapid = checkVapid(String(request.headers.authorization ?? ''), origin);
        if (request.headers['content-encoding'] !== 'aes128gcm')
          throw new Error(`Content-Encoding is ${request.headers['content-encoding']}`);
        const plaintext = decryptAes128gcm(Buffer.concat(chunks), device).toString('utf8');
        const status = answers.get(endpoint) ?? 201;
        received.push({ endpoint, status, headers: request.headers, vapid, plaintext });
        response.writeHead(status).end();
      } catch (error) {
        response.writeHead(400, { 'content-type': 'text/plain' }).end((error as Error).message);
      }
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    origin,
    cert,
    received,
    subscribe() {
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const auth = randomBytes(16);
      const endpoint = `${origin}/push/${randomBytes(12).toString('base64url')}`;
      devices.set(endpoint, { ecdh, auth });
      return {
        endpoint,
        p256dh: ecdh.getPublicKey().toString('base64url'),
        auth: auth.toString('base64url'),
      };
    },
    answer(endpoint, status) {
      answers.set(endpoint, status);
    },
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

/**
 * `Authorization: vapid t=<JWT>, k=<public key>` (RFC 8292): the JWT is ES256-signed with the key named, and claims
 * this push service's origin as its audience, an expiry within a day and a subject (mailto: or https:).
 */
function checkVapid(header: string, audience: string): ReceivedPush['vapid'] {
  const match = /^vapid t=([\w-]+\.[\w-]+\.[\w-]+), k=([\w-]+)$/.exec(header);
  if (!match) throw new Error(`Authorization is not VAPID: ${header}`);
  const [token = '', publicKey = ''] = match.slice(1);
  const [head = '', claims = '', signature = ''] = token.split('.');
  const point = Buffer.from(publicKey, 'base64url');
  if (point.length !== 65 || point[0] !== 4) throw new Error('k is not an uncompressed P-256 point');
  const key = createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: point.subarray(1, 33).toString('base64url'),
      y: point.subarray(33).toString('base64url'),
    },
    format: 'jwk',
  });
  const header_ = JSON.parse(Buffer.from(head, 'base64url').toString('utf8')) as { alg?: string };
  if (header_.alg !== 'ES256') throw new Error(`the JWT is signed with ${header_.alg}`);
  const signed = verify(
    'sha256',
    Buffer.from(`${head}.${claims}`),
    { key, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  );
  if (!signed) throw new Error('the VAPID signature does not match its key');
  const body = JSON.parse(Buffer.from(claims, 'base64url').toString('utf8')) as {
    aud: string;
    exp: number;
    sub: string;
  };
  if (body.aud !== audience) throw new Error(`the JWT is for ${body.aud}, not ${audience}`);
  const now = Date.now() / 1000;
  if (!(body.exp > now && body.exp <= now + 24 * 3600)) throw new Error(`the JWT expires at ${body.exp}`);
  if (!/^(mailto:|https:)/.test(body.sub)) throw new Error(`the JWT's subject is ${body.sub}`);
  return { publicKey, aud: body.aud, exp: body.exp, sub: body.sub };
}

/**
 * RFC 8291 on RFC 8188: the header (salt, record size, the sender's public key), then one record, decrypted with
 * keys derived from ECDH with the sender's key and the subscription's auth secret; the padding (a 0x02 delimiter and
 * zeros) taken off.
 */
function decryptAes128gcm(body: Buffer, device: Device): Buffer {
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const idLength = body[20] ?? 0;
  const senderKey = body.subarray(21, 21 + idLength);
  const record = body.subarray(21 + idLength);
  if (idLength !== 65) throw new Error(`the key id is ${idLength} bytes, not a P-256 point`);
  if (record.length > recordSize) throw new Error('more than one record');
  const secret = device.ecdh.computeSecret(senderKey);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), device.ecdh.getPublicKey(), senderKey]);
  const ikm = Buffer.from(hkdfSync('sha256', secret, device.auth, keyInfo, 32));
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(record.subarray(record.length - 16));
  const padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (padded[end] !== 2) throw new Error('the last record does not end with its delimiter');
  return padded.subarray(0, end);
}

// ---- a self-signed certificate, in DER by hand (node:crypto signs, but makes no certificates) ----

const der = (tag: number, ...content: Buffer[]) => {
  const body = Buffer.concat(content);
  const n = body.length;
  const length =
    n < 0x80 ? Buffer.from([n]) : n < 0x100 ? Buffer.from([0x81, n]) : Buffer.from([0x82, n >> 8, n & 0xff]);
  return Buffer.concat([Buffer.from([tag]), length, body]);
};
const seq = (...content: Buffer[]) => der(0x30, ...content);
const oid = (hex: string) => der(0x06, Buffer.from(hex, 'hex'));
const ECDSA_WITH_SHA256 = oid('2a8648ce3d040302');
const COMMON_NAME = oid('550403');
const BASIC_CONSTRAINTS = oid('551d13');
const SUBJECT_ALT_NAME = oid('551d11');
const utcTime = (date: Date) =>
  der(0x17, Buffer.from(`${date.toISOString().slice(2, 19).replace(/[-:T]/g, '')}Z`));

/** A P-256 key and a certificate for `ip` signed by that key (valid from yesterday for a year), both in PEM. */
function selfSignedCertificate(ip: string): { key: string; cert: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const name = seq(der(0x31, seq(COMMON_NAME, der(0x0c, Buffer.from(ip)))));
  const day = 24 * 3600 * 1000;
  const ipBytes = Buffer.from(ip.split('.').map(Number));
  const extensions = der(
    0xa3,
    seq(
      seq(BASIC_CONSTRAINTS, der(0x01, Buffer.from([0xff])), der(0x04, seq(der(0x01, Buffer.from([0xff]))))),
      seq(SUBJECT_ALT_NAME, der(0x04, seq(der(0x87, ipBytes)))),
    ),
  );
  const tbs = seq(
    der(0xa0, der(0x02, Buffer.from([2]))),
    der(0x02, Buffer.concat([Buffer.from([0x01]), randomBytes(8)])),
    seq(ECDSA_WITH_SHA256),
    name,
    seq(utcTime(new Date(Date.now() - day)), utcTime(new Date(Date.now() + 365 * day))),
    name,
    publicKey.export({ type: 'spki', format: 'der' }),
    extensions,
  );
  const signature = sign('sha256', tbs, privateKey as KeyObject);
  const certificate = seq(tbs, seq(ECDSA_WITH_SHA256), der(0x03, Buffer.from([0]), signature));
  const pem = (label: string, bytes: Buffer) =>
    `-----BEGIN ${label}-----\n${bytes.toString('base64').replace(/.{64}/g, '$&\n').trim()}\n-----END ${label}-----\n`;
  return {
    key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    cert: pem('CERTIFICATE', certificate),
  };
}
