import { PASSWORD_HINT } from '@shared/contract';
import { PhoneItem, phoneToString } from '@shared/ui/phone';
import { SignupForm, type SignupValues } from './SignupForm';

type Values = SignupValues & { phone_number: unknown };

/** /onboarding/signup: the individual's form; the email comes from {product}. */
export default function IndividualSignup() {
  return (
    <SignupForm<Values>
      subtitle="Sign up as an individual to get your own wallet and cards."
      register={['/account/individuals/register', 'Email Verification Sent.', 'Error signing up']}
      passwordExtra={PASSWORD_HINT}
      body={(v) => ({ phone_number: phoneToString(v.phone_number as never) })}
    >
      <PhoneItem of="person" />
    </SignupForm>
  );
}
