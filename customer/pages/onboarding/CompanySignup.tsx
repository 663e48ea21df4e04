import { Form, Input } from 'antd';
import { PASSWORD_HINT, registerCompanyBody } from '@shared/contract';
import { emailRules } from '@shared/ui/forms';
import { requiredMessage, requiredRule } from '@shared/ui/contractRules';
import { PhoneItem, phoneToString } from '@shared/ui/phone';
import { SignupForm, type SignupValues } from './SignupForm';

type Values = SignupValues & {
  company_phone: unknown;
  company_name: string;
  company_email: string;
  company_website: string;
};

const { company_name, company_email, company_website } = registerCompanyBody.shape;

/** /onboarding/company: the company account holder's form. */
export default function CompanySignup() {
  return (
    <SignupForm<Values>
      subtitle="Sign up your company: you will be its account admin."
      register={[
        '/account/companies/register',
        'Verification mail sent to personal email address',
        'Error signing up as company',
      ]}
      passwordExtra={`${PASSWORD_HINT} Use a strong password: a long one you use nowhere else.`}
      body={(v) => ({
        company_name: v.company_name.trim(),
        company_website: v.company_website.trim(),
        company_email: v.company_email.trim(),
        company_phone: phoneToString(v.company_phone as never),
      })}
    >
      <PhoneItem of="company" />
      <Form.Item name="company_name" label="Company Name" rules={[requiredRule(company_name)]}>
        <Input autoComplete="organization" />
      </Form.Item>
      <Form.Item name="company_email" label="Company Email" rules={emailRules(requiredMessage(company_email))}>
        <Input type="email" />
      </Form.Item>
      <Form.Item name="company_website" label="Company Website" rules={[requiredRule(company_website)]}>
        <Input placeholder={window.location.host} />
      </Form.Item>
    </SignupForm>
  );
}
