import { Container, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { initialNow } from '../ssr/render-instant.js';
import classes from './layout.module.css';

const columns = [
  { title: 'Support', lines: ['Help centre', 'Food safety', 'Contact us'] },
  { title: 'Hosting', lines: ['Become a home cook', 'Kitchen guidelines', 'Pricing for cooks'] },
  { title: 'HomeCooked', lines: ['About us', 'Careers', 'Privacy and terms'] },
];

/** Static footer columns (the spec's Support, Hosting and company links are text only). */
export function Footer() {
  return (
    <footer className={classes.footer}>
      <Container size="lg" py="xl">
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          {columns.map((column) => (
            <Stack key={column.title} gap={4}>
              <Title order={2} size="h5">
                {column.title}
              </Title>
              {column.lines.map((line) => (
                <Text key={line} size="sm" c="dimmed">
                  {line}
                </Text>
              ))}
            </Stack>
          ))}
        </SimpleGrid>
        <Text size="xs" c="dimmed" mt="lg">
          © {new Date(initialNow()).getFullYear()} HomeCooked
        </Text>
      </Container>
    </footer>
  );
}
