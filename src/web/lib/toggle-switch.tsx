import { useId } from 'react';
import classes from './toggle-switch.module.css';

/** An on/off switch with its label: a native checkbox with role="switch" (see toggle-switch.module.css). */
export function ToggleSwitch({
  label,
  checked,
  onChange,
}: {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
}) {
  const id = useId();
  return (
    <label className={classes.root} htmlFor={id}>
      <input
        id={id}
        type="checkbox"
        role="switch"
        className={classes.input}
        checked={checked}
        onChange={(event) => onChange(event.currentTarget.checked)}
      />
      {label}
    </label>
  );
}
