import { Card, Collapse, Typography } from 'antd';
import { ContactForm } from '@shared/ui/ContactForm';
import { PageHeader } from '@shared/ui/PageHeader';
import { useSession } from '@shared/ui/useSession';
import { SplitLayout } from '../../layouts/SplitLayout';
import { FAQ } from './faq';

export const SUPPORT_EMAIL = 'support@cardwallet.example';

/** /portal/faq */
export function FaqPage() {
  return (
    <>
      <PageHeader title="Frequently asked questions" subtitle="Answers to what customers ask us most." />
      <Card>
        <Collapse
          items={FAQ.map((f, i) => ({
            key: String(i),
            label: f.q,
            children: <Typography.Paragraph style={{ margin: 0 }}>{f.a}</Typography.Paragraph>,
          }))}
        />
        <Typography.Paragraph style={{ marginTop: 16 }}>
          Still need help? Write to <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a> or use the Help Desk.
        </Typography.Paragraph>
      </Card>
    </>
  );
}

/** /portal/help-desk: a message to support, from a signed-in customer. */
export function HelpDeskPage() {
  const session = useSession();
  const user = session?.user;
  return (
    <>
      <PageHeader title="Help Desk" subtitle="Send us a message and our support team will reply by email." />
      <Card style={{ maxWidth: 640 }}>
        <Typography.Title level={2} style={{ marginTop: 0, fontSize: 20 }}>
          Send us a message
        </Typography.Title>
        <ContactForm initial={user ? { name: `${user.first_name} ${user.last_name}`, email: user.email } : undefined} />
      </Card>
    </>
  );
}

/** /contact: the public Contact page. */
export function ContactPage() {
  return (
    <SplitLayout panel="left">
      <Typography.Title level={1} className="cw-form-title">
        Send us a message
      </Typography.Title>
      <Typography.Paragraph type="secondary">
        Questions about an account, a card or a payment? We answer by email, usually within a working day.
      </Typography.Paragraph>
      <ContactForm />
    </SplitLayout>
  );
}
