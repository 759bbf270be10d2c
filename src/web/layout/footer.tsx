import { Container, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { initialNow } from '../ssr/render-instant.js';
import { StaticPart } from '../ssr/static-part.js';
import { msg, t } from '../i18n.js';
import classes from './layout.module.css';

const columns = [
  { title: msg('Support'), lines: [msg('Help centre'), msg('Food safety'), msg('Contact us')] },
  {
    title: msg('Hosting'),
    lines: [msg('Become a home cook'), msg('Kitchen guidelines'), msg('Pricing for cooks')],
  },
  { title: 'HomeCooked', lines: [msg('About us'), msg('Careers'), msg('Privacy and terms')] },
];

/**
 * Static footer columns (the spec's Support, Hosting and company links are text only), and the link to the platform's
 * insurance and how to complain.
 */
export function Footer() {
  return (
    <footer className={classes.footer}>
      {/* Read, never touched: not hydrated (ADR 13). */}
      <StaticPart>
        <Container size="lg" py="xl">
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            {columns.map((column) => (
              <Stack key={column.title} gap={4}>
                <Title order={2} size="h5">
                  {t(column.title)}
                </Title>
                {column.lines.map((line) => (
                  <Text key={line} size="sm" c="dimmed">
                    {t(line)}
                  </Text>
                ))}
              </Stack>
            ))}
          </SimpleGrid>
          <Text size="xs" c="dimmed" mt="lg">
            © {new Date(initialNow()).getFullYear()} HomeCooked ·{' '}
            {/* The server's page (the platform's duties, ADR 27): loaded by the browser, not the router. */}
            <a href="/Insurance">{t('Insurance and complaints')}</a>
          </Text>
        </Container>
      </StaticPart>
    </footer>
  );
}
