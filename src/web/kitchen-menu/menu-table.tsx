import { Button, Group, Skeleton, Table, Text } from '@mantine/core';
import type { MenuItem } from '../../shared/menu.js';
import { formatCents } from '../../shared/money.js';

/** The spec's Item, Price, Wait table, with Edit and Remove on each row. */
export function MenuTable({
  items,
  onEdit,
  onRemove,
}: {
  items: MenuItem[] | undefined;
  onEdit: (item: MenuItem) => void;
  onRemove: (item: MenuItem) => void;
}) {
  return (
    <Table striped highlightOnHover aria-labelledby="menu-heading" aria-busy={items === undefined}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Item</Table.Th>
          <Table.Th>Price</Table.Th>
          <Table.Th>Wait</Table.Th>
          <Table.Th>Actions</Table.Th>
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
              <Text c="dimmed">Your menu is empty. Add your first dish with 2 ADD TO MENU.</Text>
            </Table.Td>
          </Table.Tr>
        ) : (
          items.map((item) => (
            <Table.Tr key={item.id}>
              <Table.Td>{item.item}</Table.Td>
              <Table.Td>{formatCents(item.priceCents)}</Table.Td>
              <Table.Td>{item.wait}</Table.Td>
              <Table.Td>
                <Group gap="xs" wrap="nowrap">
                  <Button
                    size="xs"
                    variant="light"
                    aria-label={`Edit ${item.item}`}
                    onClick={() => onEdit(item)}
                  >
                    Edit
                  </Button>
                  <Button
                    size="xs"
                    variant="light"
                    color="red"
                    aria-label={`Remove ${item.item}`}
                    onClick={() => onRemove(item)}
                  >
                    Remove
                  </Button>
                </Group>
              </Table.Td>
            </Table.Tr>
          ))
        )}
      </Table.Tbody>
    </Table>
  );
}
