/*
 * Loading placeholders in the shape of what is coming, in plain markup over src/boot.css (antd's
 * Skeleton would weigh on the first load): the portal's frame, and a portal screen's content.
 */

const MENU = ['dashboard', 'wallet', 'cards', 'reports', 'more'];
const TABS = ['dashboard', 'wallet', 'cards', 'more'];

function ContentBlocks() {
  return (
    <>
      <div className="boot-bar boot-page-title" />
      <div className="boot-bar boot-page-line" />
      <div className="boot-bar boot-block boot-block-short" />
      <div className="boot-bar boot-block" />
    </>
  );
}

/** The portal while its frame loads: side menu (desktop) or tab bar (phone), header, content. */
export function PortalSkeleton() {
  return (
    <div className="boot-portal boot-shown" role="status" aria-label="Loading Cardwallet">
      <div className="boot-sider">
        <img src="/logo-light.svg" alt="" height={32} />
        <div className="boot-bar boot-sider-role" />
        {MENU.map((k) => (
          <div key={k} className="boot-bar boot-sider-item" />
        ))}
      </div>
      <div className="boot-portal-main">
        <div className="boot-header">
          <img className="boot-header-logo" src="/logo.svg" alt="" height={28} />
          <div className="boot-avatar" />
        </div>
        <div className="boot-content">
          <ContentBlocks />
        </div>
      </div>
      <div className="boot-tabbar">
        {TABS.map((k) => (
          <div key={k} />
        ))}
      </div>
    </div>
  );
}

/** A portal screen while its code loads, inside the frame already shown. */
export function ScreenSkeleton() {
  return (
    <div role="status" aria-label="Loading">
      <ContentBlocks />
    </div>
  );
}
