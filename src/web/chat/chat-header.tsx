import { Anchor, Button, Container, Group, Text } from '@mantine/core';
import { NavLink } from '../router/router.js';
import { paths } from '../../shared/paths.js';
import layout from '../layout/layout.module.css';
import { t } from '../i18n.js';

/** The chat's header: the brand, a Home link and, when someone is signed in, their name and Sign Out. */
export function ChatHeader({ signedInAs, onSignOut }: { signedInAs?: string; onSignOut?: () => void }) {
  return (
    <header className={layout.header}>
      <Container size="md" className={layout.headerInner}>
        <Group gap="lg" wrap="nowrap">
          <Anchor component={NavLink} to={paths.home.href()} underline="never" className={layout.brand}>
            <Text component="span" fw={800} size="xl">
              HomeCooked
            </Text>
          </Anchor>
          <nav aria-label={t('Chat')}>
            <Anchor component={NavLink} to={paths.home.href()} end className={layout.navLink}>
              {t('Home')}
            </Anchor>
          </nav>
        </Group>
        {onSignOut && (
          <Group gap="sm" wrap="nowrap">
            {signedInAs && (
              <Text size="sm" c="dimmed" lineClamp={1}>
                {t('Signed in as {name}', { name: signedInAs })}
              </Text>
            )}
            <Button variant="outline" size="sm" onClick={onSignOut}>
              {t('Sign Out')}
            </Button>
          </Group>
        )}
      </Container>
    </header>
  );
}
