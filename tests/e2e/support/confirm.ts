import { type Locator, type Page, expect } from '@playwright/test';
import { motionless } from './flows';

/**
 * The last look before money moves (issue 31): the transfer's confirmation step, the card money question,
 * and the reason staff give to approve a payment the chain did not confirm.
 */

/** From the transfer form to its confirmation ("Send USDT 12.34 to Yaw T."): answers the confirmation. */
export async function continueTransfer(modal: Locator): Promise<Locator> {
  await modal.getByRole('button', { name: 'Continue', exact: true }).click();
  const confirm = modal.getByTestId('transfer-confirm');
  await expect(confirm).toBeVisible();
  return confirm;
}

/** Confirm on the transfer's confirmation step. */
export async function confirmTransfer(modal: Locator) {
  await modal.getByTestId('transfer-confirm').getByRole('button', { name: 'Confirm', exact: true }).click();
}

/** The card funding or withdrawal question: checks its sentence, then Confirm. */
export async function confirmCardMoney(page: Page, sentence?: string | RegExp) {
  const question = page.locator('.ant-modal-confirm');
  await expect(question.getByTestId('card-money-confirm')).toBeVisible();
  if (sentence) await expect(question.getByTestId('card-money-confirm')).toHaveText(sentence);
  // A tap on the dialog while it still zooms in can be lost.
  await motionless(page);
  await question.getByRole('button', { name: 'Confirm' }).click();
}

/** The question staff answer to approve a Tron top-up the chain did not confirm: the reason, then Approve. */
export async function giveApprovalNote(page: Page, note: string) {
  const ask = page.getByRole('dialog', { name: 'Approve a payment the chain did not confirm?' });
  await expect(ask.getByText('The chain did not confirm this payment.')).toBeVisible();
  await ask.getByLabel('Reason for approving').fill(note);
  await motionless(page);
  await ask.getByRole('button', { name: 'Approve', exact: true }).click();
}
