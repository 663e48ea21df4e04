import { theme } from 'antd';
import type { CSSProperties, ReactNode } from 'react';

/*
 * antd's Typography as the login screen uses it (same tokens, same sizes and margins), without
 * Typography itself: it brings its editable, copyable and ellipsis machinery (a text area, tooltips,
 * clipboard), about 10 KB gzipped that the first screen never uses.
 */

type Props = { children: ReactNode; style?: CSSProperties };

export function Title({ level, children, style }: Props & { level: 1 | 2 | 4 }) {
  const { token } = theme.useToken();
  const Tag = `h${level}` as const;
  return (
    <Tag
      style={{
        marginBottom: '0.5em',
        color: token.colorTextHeading,
        fontWeight: token.fontWeightStrong,
        fontSize: token[`fontSizeHeading${level}`],
        lineHeight: token[`lineHeightHeading${level}`],
        wordBreak: 'break-word',
        ...style,
      }}
    >
      {children}
    </Tag>
  );
}

export function Paragraph({ secondary, children, style }: Props & { secondary?: boolean }) {
  const { token } = theme.useToken();
  const color = secondary ? token.colorTextDescription : token.colorText;
  // antd's Paragraph is a div too (no margin above it)
  return (
    <div style={{ marginBottom: '1em', color, lineHeight: token.lineHeight, wordBreak: 'break-word', ...style }}>
      {children}
    </div>
  );
}

export function Muted({ children, style }: Props) {
  const { token } = theme.useToken();
  return <span style={{ color: token.colorTextDescription, ...style }}>{children}</span>;
}
