import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { describeEachEngine } from '../../src/server/test/test-app.js';

describeEachEngine('/Insurance: the default words', (get) => {
  it("states the platform's insurance and how to complain, to anyone, as a page with no script", async () => {
    const res = await get().app.inject('/Insurance');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain('<h1>Insurance and complaints</h1>');
    expect(res.body).toContain(
      'Insurance. The company running this marketplace holds general liability insurance',
    );
    expect(res.body).toContain('How to complain.');
    expect(res.body).not.toContain('<script');
  });
});

const dir = mkdtempSync(join(tmpdir(), 'hc-duties-'));
const file = join(dir, 'duties.txt');
writeFileSync(
  file,
  'Assurance & plaintes\r\n\r\nNous sommes assurés chez <Exemple>, police 42.\r\n\r\nÉcrivez à plaintes@example.test',
);

describeEachEngine(
  '/Insurance: a deployment words it (PLATFORM_DUTIES_FILE)',
  (get) => {
    it('serves the file: its first paragraph the title, the others paragraphs, escaped', async () => {
      const res = await get().app.inject('/Insurance');
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('<title>Assurance &amp; plaintes | HomeCooked</title>');
      expect(res.body).toContain('<h1>Assurance &amp; plaintes</h1>');
      expect(res.body).toContain('Nous sommes assurés chez &lt;Exemple&gt;, police 42.');
      expect(res.body).toContain('Écrivez à plaintes@example.test');
      expect(res.body).not.toContain('general liability');
    });
  },
  { PLATFORM_DUTIES_FILE: file },
);
