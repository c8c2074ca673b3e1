<!-- include start from pki/ca-certificate-multi.xml.i -->
<leafNode name="ca-certificate">
  <properties>
    <help>Certificate Authority chain in PKI configuration</help>
    <completionHelp>
      <path>pki ca</path>
    </completionHelp>
    <valueHelp>
      <format>txt</format>
      <description>Name of CA in PKI configuration</description>
    </valueHelp>
    <multi/>
  </properties>
</leafNode>
<!-- include end -->
