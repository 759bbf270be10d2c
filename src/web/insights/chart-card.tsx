import { Anchor, Button, Group, Paper, ScrollArea, Stack, Table, Text, Title } from '@mantine/core';
import { useId, useState, type ReactNode } from 'react';
import { t } from '../i18n.js';

/** A table behind a chart: its column headers and rows of text. */
export interface ChartTable {
  columns: string[];
  rows: (string | number)[][];
}

/**
 * A chart in its card: a title, the chart (hidden from screen readers: its table says the same), and 'Show as table'
 * to read the figures instead, with the same table as a CSV file.
 */
export function ChartCard({
  title,
  summary,
  table,
  csvUrl,
  extra,
  children,
}: {
  title: string;
  /** One line under the title that says what the chart shows in words. */
  summary?: ReactNode;
  table: ChartTable;
  csvUrl?: string;
  /** Said beside the chart, for everyone (not a part of the chart's picture). */
  extra?: ReactNode;
  children: ReactNode;
}) {
  const [asTable, setAsTable] = useState(false);
  const headingId = useId();
  const tableId = useId();
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby={headingId}>
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" wrap="wrap" gap="xs">
          <Title order={2} size="h4" id={headingId}>
            {title}
          </Title>
          <Group gap="xs">
            <Button
              variant="default"
              size="xs"
              aria-pressed={asTable}
              aria-controls={asTable ? tableId : undefined}
              onClick={() => setAsTable(!asTable)}
            >
              {t('Show as table')}
            </Button>
            {csvUrl ? (
              <Anchor href={csvUrl} download size="sm">
                {t('CSV')}
              </Anchor>
            ) : null}
          </Group>
        </Group>
        {typeof summary === 'string' ? <Text size="sm">{summary}</Text> : summary}
        {asTable ? (
          // Focusable, so that a table wider than a phone scrolls from the keyboard too.
          <ScrollArea type="auto" id={tableId} viewportProps={{ tabIndex: 0 }}>
            <Table striped withTableBorder fz="sm" aria-labelledby={headingId}>
              <Table.Thead>
                <Table.Tr>
                  {table.columns.map((column) => (
                    <Table.Th key={column} scope="col">
                      {column}
                    </Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {table.rows.length === 0 ? (
                  <Table.Tr>
                    <Table.Td colSpan={table.columns.length}>{t('Nothing in this period')}</Table.Td>
                  </Table.Tr>
                ) : (
                  table.rows.map((row, i) => (
                    <Table.Tr key={i}>
                      {row.map((cell, j) => (
                        <Table.Td key={j}>{cell}</Table.Td>
                      ))}
                    </Table.Tr>
                  ))
                )}
              </Table.Tbody>
            </Table>
          </ScrollArea>
        ) : (
          <div aria-hidden="true">{children}</div>
        )}
        {extra}
      </Stack>
    </Paper>
  );
}
