<!-- include start from pki/certificate.xml.i -->
<leafNode name="certificate">
  <properties>
    <help>Certificate in PKI configuration</help>
    <completionHelp>
      <path>pki certificate</path>
    </completionHelp>
    <valueHelp>
      <format>txt</format>
      <description>Name of certificate in PKI configuration</description>
    </valueHelp>
  </properties>
</leafNode>
<!-- include end -->
