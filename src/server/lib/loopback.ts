/**
 * Whether `host` (a URL's hostname, or a HOST to listen on) names this machine only: localhost and its
 * subdomains, 127.0.0.0/8 and ::1. A URL's hostname comes canonical from the URL parser ("127.1" is
 * "127.0.0.1", IPv6 in brackets).
 */
export function isLoopbackHost(host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  return (
    name === 'localhost' ||
    name.endsWith('.localhost') ||
    name === '::1' ||
    name === '[::1]' ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name)
  );
}
