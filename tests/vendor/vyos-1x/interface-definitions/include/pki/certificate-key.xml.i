<!-- include start from pki/certificate-key.xml.i -->
#include <include/pki/certificate.xml.i>
<leafNode name="passphrase">
  <properties>
    <help>Private key passphrase</help>
    <valueHelp>
      <format>txt</format>
      <description>Passphrase to decrypt the private key</description>
    </valueHelp>
  </properties>
</leafNode>
<!-- include end -->
