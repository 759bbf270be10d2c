import { Container } from '@mantine/core';
import type { ReactNode } from 'react';
import { Footer } from './footer.js';
import { OfflineBanner } from './offline-banner.js';
import { TopBar } from './top-bar.js';
import classes from './layout.module.css';

/** The public pages' frame: top bar, content, footer. */
export function PageLayout({ children }: { children: ReactNode }) {
  return (
    <div className={classes.page}>
      <TopBar />
      <OfflineBanner />
      <Container size="lg" component="main" className={classes.main} py="xl">
        {children}
      </Container>
      <Footer />
    </div>
  );
}
