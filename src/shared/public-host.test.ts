import { describe, expect, it } from 'vitest';
import { isPublicHost } from './public-host.js';

const hostOf = (link: string) => new URL(link).hostname;

describe('isPublicHost', () => {
  it.each([
    'https://img.example/a.png',
    'https://cdn.images.example.com/a.png',
    'http://8.8.8.8/a.png',
    'http://[2606:4700::1111]/a.png',
    'https://crème-brûlée.example/a.png',
    'https://images.invalid/a.png',
  ])('accepts %s', (link) => expect(isPublicHost(hostOf(link))).toBe(true));

  it.each([
    'http://localhost/a.png',
    'http://LOCALHOST./a.png',
    'http://app.localhost/a.png',
    'http://127.0.0.1/a.png',
    'http://127.255.0.9/a.png',
    'http://2130706433/a.png',
    'http://0x7f.0.0.1/a.png',
    'http://0/a.png',
    'http://10.1.2.3/a.png',
    'http://100.64.0.1/a.png',
    'http://172.31.255.255/a.png',
    'http://192.168.0.1/a.png',
    'http://169.254.169.254/a.png',
    'http://224.0.0.1/a.png',
    'http://255.255.255.255/a.png',
    'http://[::1]/a.png',
    'http://[::]/a.png',
    'http://[::ffff:127.0.0.1]/a.png',
    'http://[::ffff:a00:1]/a.png',
    'http://[fe80::1]/a.png',
    'http://[fc00::1]/a.png',
    'http://[ff02::1]/a.png',
    'http://[2001:db8::1]/a.png',
    'http://intranet/a.png',
    'http://printer.local/a.png',
    'http://metadata.google.internal/a.png',
    'http://nas.home.arpa/a.png',
    'http://shop.test/a.png',
  ])('refuses %s', (link) => expect(isPublicHost(hostOf(link))).toBe(false));
});
