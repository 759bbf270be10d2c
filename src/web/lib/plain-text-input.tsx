import { Input } from '@mantine/core';
import { useId, type CSSProperties, type InputHTMLAttributes, type ReactNode } from 'react';

const css = (variables: Record<string, string>) => variables as CSSProperties;
const LABEL_STYLE = css({ '--input-label-size': 'var(--mantine-font-size-sm)' });
const DESCRIPTION_STYLE = css({
  '--input-description-size': 'calc(var(--mantine-font-size-sm) - calc(0.125rem * var(--mantine-scale)))',
});
const SIZES = { '--input-height': 'var(--input-height-sm)', '--input-fz': 'var(--mantine-font-size-sm)' };
const WRAPPER_STYLE = css(SIZES);
const WRAPPER_UNDER_DESCRIPTION_STYLE = css({
  '--input-margin-top': 'calc(var(--mantine-spacing-xs) / 2)',
  ...SIZES,
});

/**
 * A text field of the landing page's search (hydrated there, so what it costs counts): Mantine's TextInput as its
 * HTML, with a label, perhaps a description and a section on its right. Mantine's is seven components, and its id
 * (Mantine's `useId`) is replaced by a random one as soon as it is hydrated, which renders it all a second time; this
 * is three elements and React's id. plain-text-input.component.test.tsx renders both on the server and compares.
 */
export function PlainTextInput({
  label,
  description,
  rightSection,
  ...input
}: {
  label: string;
  description?: string;
  rightSection?: ReactNode;
} & Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'className' | 'style'>) {
  const id = useId();
  const { classes } = Input;
  return (
    <div className={`${classes.root} mantine-InputWrapper-root mantine-TextInput-root`} data-size="sm">
      <label
        style={LABEL_STYLE}
        className={`${classes.label} mantine-InputWrapper-label mantine-TextInput-label`}
        data-size="sm"
        htmlFor={id}
        id={`${id}-label`}
      >
        {label}
      </label>
      {description && (
        <p
          style={DESCRIPTION_STYLE}
          className={`${classes.description} mantine-InputWrapper-description mantine-TextInput-description`}
          data-size="sm"
          id={`${id}-description`}
        >
          {description}
        </p>
      )}
      <div
        style={description ? WRAPPER_UNDER_DESCRIPTION_STYLE : WRAPPER_STYLE}
        className={`${classes.wrapper} mantine-Input-wrapper mantine-TextInput-wrapper`}
        data-variant="default"
        data-size="sm"
        data-with-right-section={rightSection ? true : undefined}
      >
        <input
          className={`${classes.input} mantine-Input-input mantine-TextInput-input`}
          data-variant="default"
          {...input}
          aria-describedby={description ? `${id}-description` : undefined}
          id={id}
        />
        {rightSection && (
          <div
            data-position="right"
            className={`${classes.section} mantine-Input-section mantine-TextInput-section`}
          >
            {rightSection}
          </div>
        )}
      </div>
    </div>
  );
}
