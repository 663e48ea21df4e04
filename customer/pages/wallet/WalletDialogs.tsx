import { Modal } from 'antd';
import { DetailsDrawer } from '@shared/ui/wallet';
import { TopUpFlow } from './TopUpFlow';
import { TransferFlow } from './TransferFlow';

interface DialogProps {
  open: boolean;
  walletId: string;
  onClose(): void;
}

/** The Top Up modal (dashboard). */
export function TopUpModal({ open, walletId, onClose }: DialogProps) {
  return (
    <Modal title="Top Up" open={open} onCancel={onClose} footer={null} destroyOnHidden width={520} maskClosable={false}>
      <TopUpFlow walletId={walletId} onDone={onClose} />
    </Modal>
  );
}

/** The Top Up panel (wallet loads). */
export function TopUpDrawer({ open, walletId, onClose }: DialogProps) {
  return (
    <DetailsDrawer title="Top Up" open={open} onClose={onClose}>
      <TopUpFlow walletId={walletId} onDone={onClose} />
    </DetailsDrawer>
  );
}

/** The transfer modal: 'Transfer' on the dashboard, 'Internal Transfer' on wallet transfers. */
export function TransferModal({ open, walletId, onClose, title = 'Transfer' }: DialogProps & { title?: string }) {
  return (
    <Modal title={title} open={open} onCancel={onClose} footer={null} destroyOnHidden width={520} maskClosable={false}>
      <TransferFlow walletId={walletId} onDone={onClose} />
    </Modal>
  );
}
