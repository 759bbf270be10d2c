/**
 * Picture links the API must refuse: each would make every visitor's browser call our own routes or a machine
 * on their network (a menu of `/auth/customer/start` pictures started 30 sign-ins per visit and locked the
 * visitor out).
 */
export const hostilePictureLinks = [
  '/auth/customer/start?returnTo=/',
  '/api/kitchens',
  'http://localhost:3000/auth/customer/start',
  'http://127.0.0.1/x.png',
  'http://2130706433/x.png',
  'http://0x7f.1/x.png',
  'http://[::1]/x.png',
  'http://[::ffff:127.0.0.1]/x.png',
  'http://10.0.0.8/x.png',
  'http://172.16.4.1/x.png',
  'http://192.168.1.1/router.png',
  'http://169.254.169.254/latest/meta-data',
  'http://[fe80::1]/x.png',
  'http://[fd00::1]/x.png',
  'http://0.0.0.0/x.png',
  'http://printer/x.png',
  'http://nas.local/x.png',
  'http://db.internal/x.png',
  'http://router.home.arpa/x.png',
  'https://user:secret@img.example/x.png',
];

/** Texts a single-line field (name, address, status) must refuse: line breaks, tabs, bidi overrides. */
export const hostileLineTexts = [
  'Dal\nMakhani',
  'Dal\rMakhani',
  'Dal\tMakhani',
  'Dal \u202Egnp.exe',
  'Dal\u2067x',
];
