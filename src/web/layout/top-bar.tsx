import { Anchor, Container, Group, Text } from '@mantine/core';
import { NavLink } from 'react-router';
import { paths } from '../../shared/paths.js';
import classes from './layout.module.css';

const links = [
  { label: 'Home', to: paths.home.href() },
  { label: 'Kitchen Register', to: paths.adminSignIn.href() },
  { label: 'Order', to: paths.customerOrderStatus.href() },
];

export function TopBar() {
  return (
    <header className={classes.header}>
      <Container size="lg" className={classes.headerInner}>
        <Anchor component={NavLink} to={paths.home.href()} underline="never" className={classes.brand}>
          <Text component="span" fw={800} size="xl">
            HomeCooked
          </Text>
        </Anchor>
        <nav aria-label="Main">
          <Group gap="md" wrap="nowrap">
            {links.map((link) => (
              <Anchor key={link.to} component={NavLink} to={link.to} end className={classes.navLink}>
                {link.label}
              </Anchor>
            ))}
          </Group>
        </nav>
      </Container>
    </header>
  );
}
