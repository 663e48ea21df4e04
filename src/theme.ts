import type { ThemeConfig } from 'antd';

// Text and tag colours meet WCAG AA (4.5:1) on white, on the page grey (#f5f7fb) and on each
// tag's own tint; antd's defaults (secondary text 0.45 black, tag text palette 7) do not.
const MUTED = 'rgba(0, 0, 0, 0.6)';
const TAG_TEXT = {
  green7: '#237804',
  gold7: '#874d00',
  volcano7: '#ad2102',
  orange7: '#ad4e00',
  cyan7: '#006d75',
  lime7: '#3f6600',
};

export const theme: ThemeConfig = {
  token: {
    colorPrimary: '#1d4ed8',
    colorPrimaryHover: '#2563eb',
    colorLink: '#1d4ed8',
    colorLinkHover: '#2563eb',
    colorSuccess: '#15803d',
    colorWarning: '#b45309',
    colorError: '#b91c1c',
    colorTextDescription: MUTED,
    colorTextTertiary: MUTED,
    colorTextPlaceholder: 'rgba(0, 0, 0, 0.55)',
    borderRadius: 8,
    fontFamily:
      "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'Noto Sans', sans-serif",
  },
  components: {
    Layout: { headerBg: '#ffffff', siderBg: '#0f172a', bodyBg: '#f5f7fb' },
    Menu: { darkItemBg: '#0f172a', darkSubMenuItemBg: '#0b1222' },
    Tag: TAG_TEXT,
    // The off track carries white text ("No"): dark enough for it.
    Switch: { colorTextQuaternary: '#6b6b6b', colorTextTertiary: '#595959' },
    // Their "no records" text is drawn in the disabled colour.
    Table: { colorTextDisabled: MUTED },
    List: { colorTextDisabled: MUTED },
    Empty: { colorTextDisabled: MUTED },
    // A disabled input's prefix and suffix ("From … USD") stay readable.
    Input: { colorTextDisabled: MUTED },
  },
};
