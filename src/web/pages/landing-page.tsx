import { Button, Group, Text, Title } from '@mantine/core';
import { Link } from '../router/router.js';
import { paths } from '../../shared/paths.js';
import { KitchensSection } from '../kitchens/kitchens-section.js';
import { PageLayout } from '../layout/page-layout.js';
import classes from '../layout/layout.module.css';
import { t } from '../i18n.js';
import { StaticPart } from '../ssr/static-part.js';

export function LandingPage() {
  return (
    <PageLayout>
      <section className={classes.hero} aria-labelledby="about-heading">
        {/* Read and followed, never changed: not hydrated (ADR 13); its links are followed all the same. */}
        <StaticPart>
          <Title order={1} id="about-heading" mb="sm">
            {t('Homemade food, from a home near you')}
          </Title>
          <Text size="lg" maw={680} mb="md" className={classes.heroText}>
            {t(
              'Living away from home? HomeCooked connects people living away from home with home cooks who make the dishes you miss — fresh, honest and cooked the way it is at home.',
            )}
          </Text>
          <Group>
            <Button component="a" href="#kitchens-heading">
              {t('Browse kitchens')}
            </Button>
            <Button component={Link} to={paths.adminSignIn.href()} variant="outline">
              {t('Register your kitchen')}
            </Button>
          </Group>
        </StaticPart>
      </section>
      <KitchensSection />
    </PageLayout>
  );
}
