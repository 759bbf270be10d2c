import classes from './placeholder.module.css';

/**
 * Where a loading list's text or picture will be: `h` high, `w` wide (a length or a share), `mb` below it in theme
 * spacing ('sm'); rounded as `radius` ('md') says.
 */
export function Placeholder({
  h,
  w = '100%',
  mb,
  radius,
}: {
  h: number;
  w?: number | string;
  mb?: 'sm';
  radius?: 'md';
}) {
  return (
    <div
      className={classes.placeholder}
      style={{
        height: h,
        width: w,
        marginBottom: mb && `var(--mantine-spacing-${mb})`,
        ...(radius ? { '--radius': `var(--mantine-radius-${radius})` } : {}),
      }}
    />
  );
}
