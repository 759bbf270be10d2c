import { Box, Button, Card, Group, Skeleton, Stack, Table, Text } from '@mantine/core';
import { portionsNote, type MenuItem } from '../../shared/menu.js';
import { formatCents } from '../../shared/money.js';
import { msg, t } from '../i18n.js';

interface MenuViewProps {
  items: MenuItem[] | undefined;
  onEdit: (item: MenuItem) => void;
  onRemove: (item: MenuItem) => void;
}

const EMPTY = msg('Your menu is empty. Add your first dish with 2 ADD TO MENU.');

/** Edit and Remove of one dish (small in the table's row, full size on a phone's card). */
function DishActions({
  item,
  onEdit,
  onRemove,
  size,
}: Omit<MenuViewProps, 'items'> & { item: MenuItem; size: 'xs' | 'md' }) {
  return (
    <Group gap="xs" wrap="nowrap">
      <Button
        size={size}
        variant="light"
        aria-label={t('Edit {name}', { name: item.item })}
        onClick={() => onEdit(item)}
      >
        {t('Edit')}
      </Button>
      <Button
        size={size}
        variant="light"
        color="red"
        aria-label={t('Remove {name}', { name: item.item })}
        onClick={() => onRemove(item)}
      >
        {t('Remove')}
      </Button>
    </Group>
  );
}

/** The cook's menu: the spec's table on wide screens, one card per dish on a phone. */
export function MenuView(props: MenuViewProps) {
  return (
    <>
      <Box visibleFrom="sm">
        <MenuTable {...props} />
      </Box>
      <Box hiddenFrom="sm">
        <MenuCards {...props} />
      </Box>
    </>
  );
}

/** On a phone: each dish with its price, wait, what is left today, and Edit and Remove in reach of a thumb. */
function MenuCards({ items, onEdit, onRemove }: MenuViewProps) {
  if (items === undefined) return <Skeleton h={80} />;
  if (items.length === 0) return <Text c="dimmed">{t(EMPTY)}</Text>;
  return (
    <Stack component="ul" aria-labelledby="menu-heading" gap="sm" p={0} m={0} style={{ listStyle: 'none' }}>
      {items.map((item) => (
        <Card key={item.id} component="li" withBorder radius="md" padding="sm" data-testid="menu-card">
          <Group justify="space-between" wrap="nowrap" align="flex-start">
            <Text fw={700} style={{ overflowWrap: 'anywhere' }}>
              <bdi>{item.item}</bdi>
              {item.secondName && <bdi> · {item.secondName}</bdi>}
            </Text>
            <Text fw={600}>{formatCents(item.priceCents)}</Text>
          </Group>
          <Text size="sm" c="dimmed" mb="xs">
            {portionsNote(item)
              ? t('Wait {wait} · {portions}', { wait: item.wait, portions: t(portionsNote(item) ?? '') })
              : t('Wait {wait}', { wait: item.wait })}
          </Text>
          <DishActions item={item} onEdit={onEdit} onRemove={onRemove} size="md" />
        </Card>
      ))}
    </Stack>
  );
}

/** The spec's Item, Price, Wait table, with Edit and Remove on each row. */
function MenuTable({ items, onEdit, onRemove }: MenuViewProps) {
  return (
    <Table striped highlightOnHover aria-labelledby="menu-heading" aria-busy={items === undefined}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('Item')}</Table.Th>
          <Table.Th>{t('Price')}</Table.Th>
          <Table.Th>
            {
              // translators: a column: how long a dish takes to make
              t('Wait')
            }
          </Table.Th>
          <Table.Th>{t('Actions')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {items === undefined ? (
          [0, 1, 2].map((i) => (
            <Table.Tr key={i}>
              <Table.Td colSpan={4}>
                <Skeleton h={20} />
              </Table.Td>
            </Table.Tr>
          ))
        ) : items.length === 0 ? (
          <Table.Tr>
            <Table.Td colSpan={4}>
              <Text c="dimmed">{t(EMPTY)}</Text>
            </Table.Td>
          </Table.Tr>
        ) : (
          items.map((item) => (
            <Table.Tr key={item.id}>
              <Table.Td>
                <bdi>{item.item}</bdi>
                {item.secondName && <bdi> · {item.secondName}</bdi>}
              </Table.Td>
              <Table.Td>{formatCents(item.priceCents)}</Table.Td>
              <Table.Td>{item.wait}</Table.Td>
              <Table.Td>
                <DishActions item={item} onEdit={onEdit} onRemove={onRemove} size="xs" />
              </Table.Td>
            </Table.Tr>
          ))
        )}
      </Table.Tbody>
    </Table>
  );
}
