import { Anchor, Container, Group, Text } from '@mantine/core';
import { NavLink, useLocation } from '../router/router.js';
import { StaticPart } from '../ssr/static-part.js';
import { paths } from '../../shared/paths.js';
import { msg, t } from '../i18n.js';
import { LanguagePicker } from './language-picker.js';
import classes from './layout.module.css';

const links = [
  { label: msg('Home'), to: paths.home.href() },
  { label: msg('Kitchen Register'), to: paths.adminSignIn.href() },
  { label: msg('Order'), to: paths.customerOrderStatus.href() },
];

export function TopBar() {
  // The links are read and followed, never changed on a page: not hydrated (ADR 13); which is current follows the
  // path.
  const { pathname } = useLocation();
  return (
    <header className={classes.header}>
      <Container size="lg" className={classes.headerInner}>
        <StaticPart inputs={[pathname]}>
          <Anchor component={NavLink} to={paths.home.href()} underline="never" className={classes.brand}>
            <Text component="span" fw={800} size="xl">
              HomeCooked
            </Text>
          </Anchor>
        </StaticPart>
        <Group gap="md" wrap="nowrap">
          <StaticPart inputs={[pathname]}>
            <nav aria-label={t('Main')}>
              <Group gap="md" wrap="nowrap">
                {links.map((link) => (
                  <Anchor key={link.to} component={NavLink} to={link.to} end className={classes.navLink}>
                    {t(link.label)}
                  </Anchor>
                ))}
              </Group>
            </nav>
          </StaticPart>
          <LanguagePicker />
        </Group>
      </Container>
    </header>
  );
}
