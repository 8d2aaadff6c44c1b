import { useState, type ReactNode } from 'react';
import { Button, type ButtonVariant } from './button.tsx';
import { Modal } from './modal.tsx';

interface Props {
  title: string;
  children?: ReactNode;
  confirmLabel?: string;
  cancelLabel?: string;
  variant?: ButtonVariant;
  /** May return an error text to show in the modal (it then stays open). */
  onConfirm: () => Promise<string | void> | string | void;
  onClose: () => void;
}

/** A yes/no question; the confirm button shows progress and errors stay inside the modal. */
export function ConfirmModal({ title, children, confirmLabel = 'Yes', cancelLabel = 'No', variant = 'primary', onConfirm, onClose }: Props) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      const message = await onConfirm();
      if (message) setError(message);
      else onClose();
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      title={title}
      onClose={onClose}
      width={480}
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={busy}>
            {cancelLabel}
          </Button>
          <Button variant={variant} onClick={() => void confirm()} busy={busy}>
            {confirmLabel}
          </Button>
        </>
      }
    >
      {children}
      {error && (
        <div className="form-error" role="alert" style={{ marginTop: 12, marginBottom: 0 }}>
          {error}
        </div>
      )}
    </Modal>
  );
}
