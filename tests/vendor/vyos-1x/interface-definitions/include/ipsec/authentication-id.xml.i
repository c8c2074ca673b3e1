<!-- include start from ipsec/authentication-id.xml.i -->
<leafNode name="local-id">
  <properties>
    <help>Local ID for peer authentication</help>
    <valueHelp>
      <format>txt</format>
      <description>Local ID used for peer authentication</description>
    </valueHelp>
  </properties>
</leafNode>
<!-- include end -->
