<!-- include start from ipsec/authentication-pre-shared-secret.xml.i -->
<leafNode name="pre-shared-secret">
  <properties>
    <help>Pre-shared secret key</help>
    <valueHelp>
      <format>txt</format>
      <description>Pre-shared secret key</description>
    </valueHelp>
  </properties>
</leafNode>
<!-- include end -->
