import { createTheme, type CSSVariablesResolver, type MantineColorsTuple } from '@mantine/core';

// A warm orange whose darker shades keep text and buttons above WCAG AA contrast on white.
const brand: MantineColorsTuple = [
  '#fff4e6',
  '#ffe8cc',
  '#ffd8a8',
  '#ffc078',
  '#ffa94d',
  '#ff922b',
  '#f76707',
  '#e8590c',
  '#c2410c',
  '#9a3412',
];

export const theme = createTheme({
  colors: { brand },
  primaryColor: 'brand',
  primaryShade: 8,
  defaultRadius: 'md',
  components: {
    // Dialogs: a named close button; the header is not a second page banner landmark.
    Modal: {
      defaultProps: {
        closeButtonProps: { 'aria-label': 'Close dialog' },
        attributes: { header: { role: 'presentation' } },
      },
    },
    // Toasts: a named close button, and a message text dark enough for AA (Mantine's default grey is not).
    Notification: {
      defaultProps: { closeButtonProps: { 'aria-label': 'Close notification' } },
      styles: { description: { color: 'var(--mantine-color-gray-7)' } },
    },
  },
});

export const cssVariablesResolver: CSSVariablesResolver = (t) => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': t.colors.gray[7] ?? '#495057',
    // Field error messages: Mantine's default red is below AA contrast on white.
    '--mantine-color-error': t.colors.red[9] ?? '#c92a2a',
  },
  dark: {},
});
