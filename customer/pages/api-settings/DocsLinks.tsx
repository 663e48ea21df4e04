import { BookOutlined, CodeOutlined } from '@ant-design/icons';
import { Button, Flex } from 'antd';
import { useNavigate } from 'react-router';

export const GUIDE_PATH = '/portal/apisettings/guide';

/** Links to the integration guide (docs/api.md, read inside the portal) and the OpenAPI reference (/api/docs). */
export function DocsLinks({ block }: { block?: boolean }) {
  const navigate = useNavigate();
  const half = block ? { flex: 1 } : undefined;
  return (
    <Flex gap={8} style={block ? { width: '100%' } : undefined}>
      <Button
        href={GUIDE_PATH}
        icon={<BookOutlined />}
        style={half}
        onClick={(e) => {
          e.preventDefault();
          navigate(GUIDE_PATH);
        }}
      >
        Integration guide
      </Button>
      <Button href="/api/docs" target="_blank" rel="noopener noreferrer" icon={<CodeOutlined />} style={half}>
        API reference
      </Button>
    </Flex>
  );
}
