// Mantine's styles for the components only the pages and dialogs loaded on demand use (the first view's are in
// mantine-styles.ts). Everything the app loads on demand awaits `loadLaterStyles()` first, so these come after the
// first view's styles in the page, in the same order as in Mantine's own stylesheet.
import '@mantine/core/styles/Grid.css';
import '@mantine/core/styles/Divider.css';
import '@mantine/core/styles/List.css';
import '@mantine/core/styles/Fieldset.css';
import '@mantine/core/styles/NumberInput.css';
import '@mantine/core/styles/InlineInput.css';
import '@mantine/core/styles/Combobox.css';
import '@mantine/core/styles/Popover.css';
import '@mantine/core/styles/ScrollArea.css';
import '@mantine/core/styles/Table.css';
import '@mantine/core/styles/Radio.css';
import '@mantine/core/styles/Rating.css';
import '@mantine/core/styles/SegmentedControl.css';
import '@mantine/core/styles/Overlay.css';
import '@mantine/core/styles/ModalBase.css';
import '@mantine/core/styles/Modal.css';
import '@mantine/core/styles/Tabs.css';
import '@mantine/core/styles/Timeline.css';
import '@mantine/core/styles/Switch.css';
// After Mantine's own, as for the first view's components.
import './touch-targets-later.css';
