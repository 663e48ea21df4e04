import { Button, Result } from 'antd';
import { useNavigate } from 'react-router';
import { ResultHeading } from '@shared/ui/ResultHeading';

export default function NotFound() {
  const navigate = useNavigate();
  return (
    <Result
      status="404"
      title={<ResultHeading>Page not found</ResultHeading>}
      subTitle="The page you are looking for does not exist."
      extra={<Button onClick={() => navigate('/')}>Back to Home</Button>}
    />
  );
}
